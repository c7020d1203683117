import wave, struct, math, sys
out=sys.argv[1]; T=float(sys.argv[2]); N=float(sys.argv[3]); Af=sys.argv[4]; Bf=sys.argv[5]
w=wave.open(out); r=w.getframerate(); o=w.readframes(10**9)
A=wave.open(Af).readframes(10**9); B=wave.open(Bf).readframes(10**9)
bpf=4; s=int(round((T-N)*r))*bpf; e=int(round(T*r))*bpf; n=int(round(N*r))*bpf
print('output frames', len(o)//bpf, 'expected', (len(A)+len(B)-n)//bpf)
print('before the overlap = outgoing exactly:', o[:s]==A[:s])
print('after the overlap = incoming from N exactly:', o[e:]==B[n:])
left=struct.unpack('<%dh'%(len(o)//2), o)[0::2]
def amp(s, f, L):
    seg=left[s:s+L]
    c=sum(v*math.cos(2*math.pi*f*(s+i)/r) for i,v in enumerate(seg)); q=sum(v*math.sin(2*math.pi*f*(s+i)/r) for i,v in enumerate(seg))
    return 2*math.hypot(c,q)/L/32768
L=4410
for k in [0.05,0.25,0.5,0.75,0.95]:
    t=T-N+k*N; st=int(t*r)-L//2; a,b=amp(st,440,L)/0.5,amp(st,660,L)/0.5
    # curve averaged over the window
    ca=sum(math.cos(min(max((t-T+N+(i-L/2)/r)/N,0),1)*math.pi/2) for i in range(L))/L
    sb=sum(math.sin(min(max((t-T+N+(i-L/2)/r)/N,0),1)*math.pi/2) for i in range(L))/L
    print('%.2f of the overlap: outgoing %.3f (curve %.3f)  incoming %.3f (curve %.3f)  power %.3f' % (k,a,ca,b,sb,a*a+b*b))
