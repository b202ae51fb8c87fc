#!/usr/bin/env python3
"""Runs krefcheck the ways a user interrupts or races it.

procs.py signal INT|TERM MARKER -- CMD...
    Starts CMD, waits (up to 60 s) until MARKER exists (the fake clang
    creates it when a TU's analysis hangs), sends the signal to CMD's process
    (as Ctrl-C or kill does) and prints how CMD ended.
procs.py survivors NAME=VALUE
    Prints the processes (other than itself) whose environment has
    NAME=VALUE, as a list: [] when every one has ended.
procs.py concurrent -- CMD1... --- CMD2... --- CMD3...
    Starts the commands at once and waits for all of them; prints their
    exit statuses in order.
"""
import os, signal, subprocess, sys, time

def main():
    mode = sys.argv[1]
    if mode == "signal":
        sig = getattr(signal, "SIG" + sys.argv[2])
        marker = sys.argv[3]
        assert sys.argv[4] == "--"
        if os.path.exists(marker):
            os.unlink(marker)
        p = subprocess.Popen(sys.argv[5:])
        t0 = time.monotonic()
        while not os.path.exists(marker):
            if p.poll() is not None:
                print(f"procs.py: the command ended (status {p.returncode}) before {marker} appeared")
                return 1
            if time.monotonic() - t0 > 60:
                p.kill()
                print(f"procs.py: {marker} did not appear within 60 s")
                return 1
            time.sleep(0.05)
        time.sleep(0.3)
        p.send_signal(sig)
        rc = p.wait()
        print(f"ended by signal {signal.Signals(-rc).name}" if rc < 0 else f"exit status {rc}")
        return 0
    if mode == "survivors":
        entry = sys.argv[2].encode()
        found = []
        for pid in os.listdir("/proc"):
            if not pid.isdigit() or int(pid) == os.getpid():
                continue
            try:
                env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
                cmd = open(f"/proc/{pid}/cmdline", "rb").read().replace(b"\0", b" ")
            except OSError:
                continue
            if entry in env:
                found.append(cmd.decode(errors="replace").strip())
        print(found)
        return 0
    if mode == "concurrent":
        assert sys.argv[2] == "--"
        cmds, cur = [], []
        for a in sys.argv[3:]:
            if a == "---":
                cmds.append(cur)
                cur = []
            else:
                cur.append(a)
        cmds.append(cur)
        ps = [subprocess.Popen(c, stderr=subprocess.DEVNULL) for c in cmds]
        print(" ".join(str(p.wait()) for p in ps))
        return 0
    print(f"procs.py: unknown mode {mode}")
    return 2

sys.exit(main())
