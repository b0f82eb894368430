"""plumbing.py - what every command shares around its work: files written
whole or not at all, a run folder marked complete, stopping when the make
above it stops, and main() ending in one line instead of a traceback.
"""
import json
import os
import sys

from .hostcaches import read_text


def write_atomic(path, text):
    """Write text to path through path.part and a rename: a reader sees the
    old file or the whole new one.  On an error (a full disk) the part file
    is removed and the OSError raised; run_main() turns it into one line."""
    tmp = path + ".part"
    try:
        with open(tmp, "w") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OSError(e.errno, e.strerror, e.filename or tmp) from None


def write_json(path, obj):
    """write_atomic() of obj as indented JSON."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n")


# The first line of the INCOMPLETE marker that scripts/results-dir.sh writes
# into a folder it makes for a tool; finish_run() removes only that marker.
UNFINISHED = "unfinished:"


def finish_run(folder):
    """Mark a folder made for this tool (scripts/results-dir.sh) complete."""
    marker = os.path.join(folder, "INCOMPLETE")
    if (read_text(marker) or "").startswith(UNFINISHED):
        os.unlink(marker)


def _proc_status(pid):
    fields = {}
    for line in (read_text(f"/proc/{pid}/status") or "").splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return fields


def watch_make(interval=1.0):
    """Stop this script (as Ctrl-C does: KeyboardInterrupt in the main thread,
    which also stops a subprocess.run() child) when a make above it ends or
    takes a fatal signal.  make forwards only SIGTERM, and only to its own
    child; on SIGINT, SIGHUP or SIGQUIT sent to it alone it waits for its
    children to finish.  Its handler resets the signal it took to the
    default action, which /proc/PID/status shows (SigCgt).  The shell twin
    of this is watch_make in scripts/run-folder.sh."""
    import _thread
    import threading
    import time
    makes, pid = [], os.getppid()
    while pid > 1:
        st = _proc_status(pid)
        if st.get("Name") in ("make", "gmake"):
            makes.append((pid, int(st.get("SigCgt", "0"), 16)))
        elif st.get("Name") not in ("sh", "dash", "bash"):
            break
        pid = int(st.get("PPid", "0"))
    if not makes:
        return

    def watch():
        while True:
            time.sleep(interval)
            for pid, cgt in makes:
                st = _proc_status(pid)
                now = int(st.get("SigCgt", "0"), 16) if st else 0
                lost = [name for name, num in (("HUP", 1), ("INT", 2), ("QUIT", 3), ("TERM", 15))
                        if cgt & (1 << (num - 1)) and not now & (1 << (num - 1))]
                if not st or lost:
                    why = f"SIG{lost[0]} to make (pid {pid})" if lost else f"make (pid {pid}) ended"
                    print(f"{os.path.basename(sys.argv[0])}: stopping: {why}", file=sys.stderr)
                    _thread.interrupt_main()
                    return

    threading.Thread(target=watch, daemon=True).start()


def run_main(main, *args):
    """Run a script's main(): Ctrl-C ends it with 130, a closed pipe with 1
    and a failed read or write (a full disk) with one line and 1, without a
    traceback (the caller, bench.sh or results-dir.sh, marks the run)."""
    prog = os.path.basename(sys.argv[0])
    try:
        main(*args)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        sys.exit(1)
