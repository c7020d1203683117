#!/usr/bin/env python3
"""Test servers for RemoteMediaTests, on 127.0.0.1, standard library only.

  test_servers.py hostile PORTFILE   an HTTP server answering each path with one kind of garbage
  test_servers.py proxy PORTFILE LOG [USER:PASSWORD]
                                     a forward HTTP proxy that logs each absolute URL it is asked for; with
                                     USER:PASSWORD it answers 407 to a request without them (Basic)
  test_servers.py silent PORTFILE    accepts TCP connections and never says a word (a TLS handshake that hangs)
  test_servers.py listenbrainz PORTFILE LOG TOKEN
                                     POST /1/submit-listens as ListenBrainz answers it; the file BEHAVIOUR beside LOG
                                     says how: ok, down (503), 429 N (X-RateLimit-Reset-In N), hang, lose-answer
                                     (takes the listens, then never answers; once, then ok); a token other than
                                     TOKEN gets 401. Logs one JSON line per request: time, status, type, listens
  test_servers.py h2only PORTFILE LOG ROOT CERT KEY
                                     files under ROOT over TLS that offers HTTP/2 only (ALPN h2; python3-h2),
                                     with Range; logs "path range" per request
  test_servers.py radio PORTFILE LOG MP3
                                     an endless radio stream: MP3's frames (tags stripped) looped at 16 KB/s on any
                                     path, with ICY metadata when asked (StreamTitle "Quaver Band - Song N", N
                                     going up every 2 s); logs each request's path

Each writes the port it listens on to PORTFILE once ready, and runs until killed.
The "real" file is FILE_LENGTH bytes, byte i being i % 251: what may ever reach the cache.
"""
import base64
import gzip
import hashlib
import http.client
import http.server
import socket
import socketserver
import sys
import threading
import time
import urllib.parse

FILE_LENGTH = 200_000
REAL = bytes(i % 251 for i in range(FILE_LENGTH))
HUGE_LENGTH = 10 * 10**9
# A WAV header (192 kHz, 32-bit stereo: 1.5 MB a second) whose data chunk has size 0: the rest of the file.
# Byte i of /huge past it is i % 251, like REAL: noise that plays.
WAV_FMT = (b"RIFF" + (0xFFFFFFFF).to_bytes(4, "little") + b"WAVEfmt " + (16).to_bytes(4, "little")
           + (1).to_bytes(2, "little") + (2).to_bytes(2, "little") + (192000).to_bytes(4, "little")
           + (192000 * 8).to_bytes(4, "little") + (8).to_bytes(2, "little") + (32).to_bytes(2, "little"))
WAV_HEAD = WAV_FMT + b"data" + (0).to_bytes(4, "little")
# /huge-sized: the same with a data chunk of 1 s (1 536 000 bytes). wavparse 1.22 reads on past it in pull
# mode: the noise there reads as a chunk 'af b0 b1 b2' of 0xb6b5b4b3 bytes, more than it can skip with
# 10 GB behind it, and it aborted the daemon (gstwavparse.c:763, g_assert (size < MAX_CHUNK_SIZE)).
WAV_SIZED_HEAD = WAV_FMT + b"data" + (192000 * 8).to_bytes(4, "little")
# /huge-tagged: the same behind an ID3v2.3 tag of 1 MiB (id3demux hands wavparse the rest).
ID3_MIB = b"ID3\x03\x00\x00" + bytes([0, 64, 0, 0]) + bytes(1 << 20)
PATTERN = bytes(i % 251 for i in range(251 * 1024))


def head(status, headers):
    lines = [status] + [f"{name}: {value}" for name, value in headers] + ["", ""]
    return "\r\n".join(lines).encode()


class Hostile(socketserver.StreamRequestHandler):
    """One request per connection; the path says what garbage to send."""

    def handle(self):
        request = self.rfile.readline(65536).decode("latin-1").split()
        headers = {}
        while True:
            line = self.rfile.readline(65536).decode("latin-1").strip()
            if not line:
                break
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        path = (request[1] if len(request) > 1 else "/").partition("?")[0]
        handler = getattr(self, "answer_" + path.strip("/").split("/")[0].replace("-", "_"), self.answer_missing)
        try:
            handler(path, headers)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def send(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def answer_missing(self, path, headers):
        self.send(head("HTTP/1.1 404 Not Found", [("Content-Length", 0), ("Connection", "close")]))

    def answer_good(self, path, headers):
        """The real file, with Range support: the control case."""
        ranged = headers.get("range", "")
        if ranged.startswith("bytes="):
            first, _, last = ranged[6:].partition("-")
            start, end = int(first), min(int(last or FILE_LENGTH - 1), FILE_LENGTH - 1) + 1
            self.send(head("HTTP/1.1 206 Partial Content", [("Content-Length", end - start), ("Connection", "close"),
                           ("Content-Range", f"bytes {start}-{end - 1}/{FILE_LENGTH}")]) + REAL[start:end])
        else:
            self.send(head("HTTP/1.1 200 OK", [("Content-Length", FILE_LENGTH), ("Connection", "close")]) + REAL)

    def answer_huge(self, path, headers):
        """A 10 GB WAV with Range support, made as it is sent (as fast as the client reads)."""
        self.send_huge(WAV_HEAD, headers)

    def answer_huge_sized(self, path, headers):
        """The 10 GB WAV with a sized data chunk and noise after it: wavparse's abort."""
        self.send_huge(WAV_SIZED_HEAD, headers)

    def answer_huge_tagged(self, path, headers):
        """/huge-sized behind a 1 MiB ID3v2 tag."""
        self.send_huge(ID3_MIB + WAV_SIZED_HEAD, headers)

    def send_huge(self, wav_head, headers):
        ranged = headers.get("range", "")
        start, end = 0, HUGE_LENGTH
        if ranged.startswith("bytes="):
            first, _, last = ranged[6:].partition("-")
            start, end = int(first), min(int(last or HUGE_LENGTH - 1), HUGE_LENGTH - 1) + 1
            self.send(head("HTTP/1.1 206 Partial Content", [("Content-Length", end - start), ("Connection", "close"),
                           ("Content-Type", "audio/x-wav"), ("Content-Range", f"bytes {start}-{end - 1}/{HUGE_LENGTH}")]))
        else:
            self.send(head("HTTP/1.1 200 OK", [("Content-Length", HUGE_LENGTH), ("Connection", "close"),
                           ("Content-Type", "audio/x-wav"), ("Accept-Ranges", "bytes")]))
        offset = start
        if offset < len(wav_head):
            self.send(wav_head[offset:end])
            offset = len(wav_head)
        while offset < end:
            piece = PATTERN[offset % 251:][: min(end - offset, 200 * 1024)]
            self.send(piece)
            offset += len(piece)

    def answer_excess(self, path, headers):
        """A body longer than its Content-Length on a connection kept open: the extra bytes come once the
        client has its answer, and are what it reads first if it sends its next request on it."""
        self.send(head("HTTP/1.1 200 OK", [("Content-Length", 10)]) + b"0123456789")
        time.sleep(0.3)
        self.send(b"GARBAGE AFTER THE BODY\r\n\r\n")
        self.handle()

    def answer_digest(self, path, headers):
        """HTTP Digest (RFC 7616, MD5, qop=auth) for quaver:secret; a 401 asking for it otherwise."""
        fields = {}
        authorization = headers.get("authorization", "")
        if authorization.startswith("Digest "):
            for part in authorization[7:].split(","):
                name, _, value = part.strip().partition("=")
                fields[name] = value.strip('"')
        md5 = lambda text: hashlib.md5(text.encode()).hexdigest()
        if fields.get("username") == "quaver":
            first = md5("quaver:quaver:secret")
            second = md5(f"GET:{fields.get('uri')}")
            expected = md5(f"{first}:{fields.get('nonce')}:{fields.get('nc')}:{fields.get('cnonce')}:auth:{second}")
            if fields.get("response") == expected:
                return self.send(head("HTTP/1.1 200 OK", [("Content-Length", 2), ("Connection", "close")]) + b"ok")
        self.send(head("HTTP/1.1 401 Unauthorized", [
            ("WWW-Authenticate", 'Digest realm="quaver", nonce="5f2b9c", qop="auth", algorithm=MD5'),
            ("Content-Length", 0), ("Connection", "close")]))

    def answer_malformed_status(self, path, headers):
        self.send(b"HTTP/1.1 two-hundred OK\r\nContent-Length: 10\r\n\r\n0123456789")

    def answer_endless_headers(self, path, headers):
        self.send(b"HTTP/1.1 200 OK\r\n")
        for number in range(10_000_000):
            self.send(f"X-Padding-{number}: {'a' * 60}\r\n".encode())

    def answer_huge_header_line(self, path, headers):
        self.send(b"HTTP/1.1 200 OK\r\nX-Huge: " + b"a" * (1 << 20) + b"\r\nContent-Length: 10\r\n\r\n0123456789")

    def answer_short_body(self, path, headers):
        self.send(head("HTTP/1.1 200 OK", [("Content-Length", FILE_LENGTH), ("Connection", "close")])
                  + REAL[: FILE_LENGTH // 2])

    def answer_stalled_body(self, path, headers):
        self.send(head("HTTP/1.1 200 OK", [("Content-Length", FILE_LENGTH)]) + REAL[:1000])
        time.sleep(3600)

    def answer_wrong_range(self, path, headers):
        """The first half, then a Range answer for other bytes than asked."""
        if "range" in headers:
            self.send(head("HTTP/1.1 206 Partial Content", [("Content-Length", 100), ("Connection", "close"),
                           ("Content-Range", f"bytes 0-99/{FILE_LENGTH}")]) + b"\xff" * 100)
        else:
            self.answer_short_body(path, headers)

    def answer_redirect_chain(self, path, headers):
        hop = int(path.rsplit("/", 1)[-1] or 0) if path.count("/") > 1 else 0
        if hop >= 10_000:
            return self.answer_good(path, headers)
        self.send(head("HTTP/1.1 302 Found", [("Location", f"/redirect-chain/{hop + 1}"), ("Content-Length", 0),
                       ("Connection", "close")]))

    def answer_to_file(self, path, headers):
        self.send(head("HTTP/1.1 302 Found", [("Location", "file:///etc/passwd"), ("Content-Length", 0),
                       ("Connection", "close")]))

    def answer_gzip_bomb(self, path, headers):
        # 64 MB of zeros as 64 gzip members of 1 MB (one gzip stream to a decoder, RFC 1952 2.2): 66 kB like the
        # one member it was, but made in 30 ms. Compressing 64 MB at once took 1.5 s under load, past the
        # client's 1 s timeout, and the track then failed as timed out instead of for its Content-Encoding.
        bomb = gzip.compress(b"\0" * (1 << 20), 9) * 64
        self.send(head("HTTP/1.1 200 OK", [("Content-Length", len(bomb)), ("Content-Encoding", "gzip"),
                       ("Connection", "close")]) + bomb)


class Proxy(http.server.BaseHTTPRequestHandler):
    """GET http://host:port/path → the same request to that server, its answer streamed back."""
    protocol_version = "HTTP/1.1"
    log_path = None
    credentials = None

    def do_GET(self):
        if Proxy.credentials is not None:
            expected = "Basic " + base64.b64encode(Proxy.credentials.encode()).decode()
            if self.headers.get("Proxy-Authorization") != expected:
                with open(Proxy.log_path, "a") as log:
                    log.write("407 " + self.path + "\n")
                self.send_response(407, "Proxy Authentication Required")
                self.send_header("Proxy-Authenticate", 'Basic realm="quaver"')
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
        with open(Proxy.log_path, "a") as log:
            log.write(self.path + "\n")
        target = urllib.parse.urlsplit(self.path)
        upstream = http.client.HTTPConnection(target.hostname, target.port or 80, timeout=30)
        forwarded = {k: v for k, v in self.headers.items()
                     if k.lower() not in ("proxy-connection", "connection", "proxy-authorization")}
        upstream.request("GET", target.path + (f"?{target.query}" if target.query else ""), headers=forwarded)
        answer = upstream.getresponse()
        body = answer.read()
        self.send_response(answer.status, answer.reason)
        for name, value in answer.getheaders():
            if name.lower() not in ("connection", "transfer-encoding", "content-length"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class HTTP2Only(socketserver.BaseRequestHandler):
    """One TLS connection speaking nothing but HTTP/2; requests answered one after another."""
    root = None
    log_path = None
    tls = None

    def handle(self):
        import h2.config
        import h2.connection
        import h2.events
        import h2.exceptions
        self.events = h2.events
        try:
            self.sock = HTTP2Only.tls.wrap_socket(self.request, server_side=True)
        except OSError:
            return
        if self.sock.selected_alpn_protocol() != "h2":
            return self.sock.close()
        self.conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
        self.conn.initiate_connection()
        self.flush()
        self.pending, self.reset = [], set()
        try:
            while True:
                if not self.pending and not self.receive():
                    return
                while self.pending:
                    self.answer(*self.pending.pop(0))
        except (OSError, h2.exceptions.ProtocolError):
            return

    def flush(self):
        self.sock.sendall(self.conn.data_to_send())

    def receive(self):
        data = self.sock.recv(65536)
        if not data:
            return False
        for event in self.conn.receive_data(data):
            if isinstance(event, self.events.RequestReceived):
                self.pending.append((event.stream_id, dict((k.decode(), v.decode()) for k, v in event.headers)))
            elif isinstance(event, self.events.StreamReset):
                self.reset.add(event.stream_id)
        self.flush()
        return True

    def answer(self, stream, headers):
        path = headers.get(":path", "/").partition("?")[0]
        ranged = headers.get("range", "")
        with open(HTTP2Only.log_path, "a") as log:
            log.write(f"{path} {ranged or '-'}\n")
        try:
            with open(HTTP2Only.root + urllib.parse.unquote(path), "rb") as source:
                body = source.read()
        except OSError:
            self.conn.send_headers(stream, [(":status", "404"), ("content-length", "0")], end_stream=True)
            return self.flush()
        status, start, end = "200", 0, len(body)
        response = [("content-type", "audio/mpeg"), ("accept-ranges", "bytes")]
        if ranged.startswith("bytes="):
            first, _, last = ranged[6:].partition("-")
            status, start, end = "206", int(first), min(int(last or len(body) - 1), len(body) - 1) + 1
            response.append(("content-range", f"bytes {start}-{end - 1}/{len(body)}"))
        self.conn.send_headers(stream, [(":status", status), ("content-length", str(end - start))] + response)
        self.flush()
        while start < end and stream not in self.reset:
            size = min(self.conn.local_flow_control_window(stream), self.conn.max_outbound_frame_size, end - start)
            if size <= 0:
                if not self.receive():
                    return
                continue
            self.conn.send_data(stream, body[start:start + size], end_stream=start + size == end)
            start += size
            self.flush()


def mp3_frames(path):
    """The MP3's frames without ID3 tags, so that they can loop."""
    data = open(path, "rb").read()
    if data[:3] == b"ID3":
        size = (data[6] << 21) | (data[7] << 14) | (data[8] << 7) | data[9]
        data = data[10 + size:]
    if data[-128:-125] == b"TAG":
        data = data[:-128]
    return data


class Radio(socketserver.BaseRequestHandler):
    """Set `frames` (mp3_frames) before serving; with `log_path` set, each request's path is logged there."""
    METAINT = 8192
    frames = b""
    log_path = None

    def handle(self):
        request = self.request.recv(4096).decode("latin-1")
        if self.log_path:
            with open(self.log_path, "a") as log:
                log.write((request.split("\r\n", 1)[0].split() + ["", ""])[1] + "\n")
        request = request.lower()
        meta = "icy-metadata: 1" in request
        head = "ICY 200 OK\r\ncontent-type: audio/mpeg\r\nicy-name: Quaver Radio\r\n"
        if meta:
            head += "icy-metaint: %d\r\n" % self.METAINT
        start, pos, looped = time.time(), 0, self.frames + self.frames[:self.METAINT]
        try:
            self.request.sendall((head + "\r\n").encode())
            while True:
                self.request.sendall(looped[pos:pos + self.METAINT])
                pos = (pos + self.METAINT) % len(self.frames)
                if meta:
                    self.request.sendall(self.title(1 + int(time.time() - start) // 2))
                time.sleep(self.METAINT / 16000.0)
        except OSError:
            pass

    @staticmethod
    def title(song):
        text = ("StreamTitle='Quaver Band - Song %d';" % song).encode()
        text += b"\0" * (-len(text) % 16)
        return bytes([len(text) // 16]) + text


class Silent(socketserver.BaseRequestHandler):
    def handle(self):
        time.sleep(3600)


class Server(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


class ListenBrainz(http.server.BaseHTTPRequestHandler):
    """A fake ListenBrainz: checks the token, logs each request, answers as the BEHAVIOUR file says."""
    protocol_version = "HTTP/1.1"
    log_path = token = None
    lock = threading.Lock()

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        behaviour = self.behaviour()
        status = 200
        if self.headers.get("Authorization") != "Token " + ListenBrainz.token:
            status = 401
        elif behaviour == "down":
            status = 503
        elif behaviour.startswith("429"):
            status = 429
        self.record(status, body)
        if status == 200 and behaviour in ("hang", "lose-answer"):
            if behaviour == "lose-answer":
                self.set_behaviour("ok")
            time.sleep(60)
            return
        if behaviour == "hang":
            time.sleep(60)
            return
        reply = b'{"status": "ok"}' if status == 200 else b'{"code": %d, "error": "no"}' % status
        headers = [("Content-Type", "application/json"), ("Content-Length", len(reply)),
                   ("X-RateLimit-Limit", 30), ("X-RateLimit-Remaining", 0 if status == 429 else 29),
                   ("X-RateLimit-Reset-In", behaviour.split()[1] if status == 429 else 10)]
        self.wfile.write(head(f"HTTP/1.1 {status} X", headers) + reply)
        self.wfile.flush()

    def behaviour(self):
        try:
            with open(ListenBrainz.log_path + ".behaviour") as file:
                return file.read().strip()
        except FileNotFoundError:
            return "ok"

    def set_behaviour(self, text):
        with open(ListenBrainz.log_path + ".behaviour", "w") as file:
            file.write(text)

    def record(self, status, body):
        import json
        try:
            payload = json.loads(body)
        except ValueError:
            payload = {"invalid": body.decode("latin-1")}
        line = json.dumps({"time": time.time(), "status": status, "type": payload.get("listen_type"),
                           "listens": payload.get("payload", [])})
        with ListenBrainz.lock, open(ListenBrainz.log_path, "a") as log:
            log.write(line + "\n")

    def log_message(self, *args):
        pass


def main():
    mode, port_file = sys.argv[1], sys.argv[2]
    handler = {"hostile": Hostile, "proxy": Proxy, "silent": Silent, "h2only": HTTP2Only, "listenbrainz": ListenBrainz,
               "radio": Radio}[mode]
    if mode == "listenbrainz":
        ListenBrainz.log_path, ListenBrainz.token = sys.argv[3], sys.argv[4]
    if mode == "radio":
        Radio.log_path, Radio.frames = sys.argv[3], mp3_frames(sys.argv[4])
    if mode == "proxy":
        Proxy.log_path = sys.argv[3]
        Proxy.credentials = sys.argv[4] if len(sys.argv) > 4 else None
        open(Proxy.log_path, "w").close()
    if mode == "h2only":
        import ssl
        HTTP2Only.log_path, HTTP2Only.root = sys.argv[3], sys.argv[4]
        open(HTTP2Only.log_path, "w").close()
        HTTP2Only.tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        HTTP2Only.tls.load_cert_chain(sys.argv[5], sys.argv[6])
        HTTP2Only.tls.set_alpn_protocols(["h2"])
    server = Server(("127.0.0.1", 0), handler)
    with open(port_file + ".new", "w") as out:
        out.write(str(server.server_address[1]))
    import os
    os.rename(port_file + ".new", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
