#!/usr/bin/env python3
# fakeserver.py MODE PORTFILE -- a server for fst-capture --sample's error tests.
#   garbage   answers "garbage" and closes     slow   accepts and never answers
#   notherc   an HTTP 200 page without a PSW   psw    Hercules' PSW page, forever
# Writes the port it listens on (127.0.0.1, chosen free) to PORTFILE.
import socket, sys, time
mode, portfile = sys.argv[1], sys.argv[2]
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(16)
open(portfile + ".tmp", "w").write(str(s.getsockname()[1])); __import__("os").rename(portfile + ".tmp", portfile)
page = b"<html><body>\n<P>\nPSW=00080000 00020080\n</body></html>\n"
while True:
    c, _ = s.accept()
    c.settimeout(5)
    try:
        c.recv(4096)
        if mode == "garbage": c.sendall(b"garbage\x01\x02\n")
        elif mode == "slow": time.sleep(10)
        elif mode == "notherc": c.sendall(b"HTTP/1.0 200 OK\r\nContent-type: text/html\r\n\r\n<html>hello</html>\n")
        else: c.sendall(b"HTTP/1.0 200 OK\nConnection: close\nContent-type: text/html\n\n" + page)
    except Exception: pass
    c.close()
