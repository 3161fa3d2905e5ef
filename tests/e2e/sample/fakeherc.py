#!/usr/bin/env python3
# fakeherc.py -d -f CONFIG -- stands in for hercules (--hercules=PATH) in fst-capture
# --sample's tests. FAKEHERC=exit: ends at once, no HTTP server. FAKEHERC=die: serves the
# PSW page on the configuration's HTTPPORT for one second, then dies (no disabled wait).
# FAKEHERC=nohttp: a Hercules built without an HTTP server: opens no port, says the
# program reached its disabled wait after half a second, and stays (as 3.13 would without
# the automatic operator's quit).
import os, socket, sys, time
if sys.argv[1:] == ["--help=version"]:   # fst-capture's probe: no banner, driven as 3.13
    sys.exit(1)
mode = os.environ.get("FAKEHERC", "exit")
if mode == "exit":
    print("HHCIN001S fake Hercules: no HTTP server here", file=sys.stderr); sys.exit(1)
if mode == "nohttp":
    time.sleep(0.5)
    print("HHCCP011I CPU0000: Disabled wait state", flush=True)
    time.sleep(60); sys.exit(0)
port = None
for line in open(sys.argv[sys.argv.index("-f") + 1]):
    w = line.split()
    if w and w[0] == "HTTPPORT": port = int(w[1])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", port)); s.listen(16); s.settimeout(0.2)
print("HHCHT006I Waiting for HTTP requests on port %d" % port, flush=True)
end = time.time() + 1.0
while time.time() < end:
    try: c, _ = s.accept()
    except socket.timeout: continue
    c.recv(4096)
    c.sendall(b"HTTP/1.0 200 OK\nContent-type: text/html\n\n<P>\nPSW=00080000 00020080\n")
    c.close()
sys.exit(9)
