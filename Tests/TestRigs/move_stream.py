"""Moves a playback stream to another sink as a mixer does (pavucontrol): `move_stream.py INDEX SINK` moves sink
input INDEX to the sink named SINK through libpulse (`pa_context_move_sink_input_by_name`, ctypes), prints "moved"
or "refused", and stays connected until it is stopped (SIGTERM).

Why it stays: pipewire-pulse 0.3.65 hands the move on to PipeWire (the stream's target in the "default" metadata)
through the moving client's own connection, after it has answered the client. A client that hangs up at once, as
pactl does, can take that write with it: the move is answered as done and never happens (measured: pactl gone
145 microseconds after the answer in a lost move, 0.7 to 3.2 ms in moves that happened)."""
import ctypes
import signal
import sys

pulse = ctypes.CDLL("libpulse.so.0")
for name, result, arguments in [
        ("pa_mainloop_new", ctypes.c_void_p, []),
        ("pa_mainloop_get_api", ctypes.c_void_p, [ctypes.c_void_p]),
        ("pa_mainloop_iterate", ctypes.c_int, [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p]),
        ("pa_context_new", ctypes.c_void_p, [ctypes.c_void_p, ctypes.c_char_p]),
        ("pa_context_connect", ctypes.c_int, [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_void_p]),
        ("pa_context_get_state", ctypes.c_int, [ctypes.c_void_p])]:
    function = getattr(pulse, name)
    function.restype, function.argtypes = result, arguments
SUCCESS = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p)
pulse.pa_context_move_sink_input_by_name.restype = ctypes.c_void_p
pulse.pa_context_move_sink_input_by_name.argtypes = [ctypes.c_void_p, ctypes.c_uint32, ctypes.c_char_p, SUCCESS,
                                                     ctypes.c_void_p]
READY, FAILED, TERMINATED = 4, 5, 6

loop = pulse.pa_mainloop_new()
context = pulse.pa_context_new(pulse.pa_mainloop_get_api(loop), b"quaver test mixer")
pulse.pa_context_connect(context, None, 0, None)
while pulse.pa_context_get_state(context) not in (READY, FAILED, TERMINATED):
    pulse.pa_mainloop_iterate(loop, 1, None)
if pulse.pa_context_get_state(context) != READY:
    sys.exit("no sound server")
answers = []
answered = SUCCESS(lambda _context, success, _data: answers.append(success))
pulse.pa_context_move_sink_input_by_name(context, int(sys.argv[1]), sys.argv[2].encode(), answered, None)
while not answers:
    pulse.pa_mainloop_iterate(loop, 1, None)
print("moved" if answers[0] else "refused", flush=True)
signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
while True:
    pulse.pa_mainloop_iterate(loop, 1, None)
