#!/usr/bin/env python3
# dieherc.py -d -f CONFIG -- a real Hercules (--hercules=PATH) that is killed mid-run:
# runs `hercules` with the same arguments, waits until its HTTP server accepts a
# connection (HTTPPORT of CONFIG), lets it run half a second more, then kills it with
# SIGKILL, as an operator or the OOM killer would, and ends with its status.
import os, signal, socket, subprocess, sys, time
cfg = sys.argv[sys.argv.index("-f") + 1]
port = [int(l.split()[1]) for l in open(cfg) if l.split()[:1] == ["HTTPPORT"]][0]
h = subprocess.Popen(["hercules"] + sys.argv[1:])
for _ in range(600):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close(); break
    except OSError:
        time.sleep(0.05)
time.sleep(0.5)
h.send_signal(signal.SIGKILL)
sys.exit(128 + signal.SIGKILL if h.wait() < 0 else 1)
