"""plumbing.py - what every command shares around its work: files written
whole or not at all, a run folder marked complete, stopping when the make
above it stops, and main() ending in one line instead of a traceback.
"""
import codecs
import errno
import io
import json
import os
import stat
import sys

from .hostcaches import read_text

def _show_bytes(e):
    """Encoding error handler "opsbench-bytes": a byte that was not UTF-8 in a
    name (decoded by Python as a surrogate) is shown as \\xNN, anything else
    that cannot be encoded as \\uNNNN."""
    if not isinstance(e, UnicodeEncodeError):
        raise e
    out = []
    for c in e.object[e.start:e.end]:
        o = ord(c)
        out.append(f"\\x{o - 0xdc00:02x}" if 0xdc80 <= o <= 0xdcff else f"\\u{o:04x}")
    return "".join(out), e.end


codecs.register_error("opsbench-bytes", _show_bytes)

# Set when this script was told to stop (a signal, or its make stopped):
# write_atomic() then writes nothing more.
STOPPING = False


class UnsafeWrite(OSError):
    """A write refused before any byte was written: a link or a folder in the way."""


def _check_inside(path, folder):
    """Refuse @path unless every folder between @folder and it is a real
    folder, not a symbolic link: what is written into a results folder
    stays inside it, whatever links the folder holds."""
    base = os.path.realpath(folder)
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(folder))
    parts = rel.split(os.sep)
    if rel == os.curdir or os.pardir in parts:
        raise UnsafeWrite(errno.EINVAL, "outside the results folder; refusing to write it", path)
    d = base
    for p in parts[:-1]:
        d = os.path.join(d, p)
        if os.path.islink(d) or (os.path.exists(d) and not os.path.isdir(d)):
            raise UnsafeWrite(errno.ELOOP, "a symbolic link or a file where a folder should be; "
                                           "refusing to write through it", d)


def write_atomic(path, text, folder=None):
    """Write text (str, or bytes) to path through path.part and a rename: a
    reader sees the old file or the whole new one.  The part file is made
    with O_CREAT|O_EXCL|O_NOFOLLOW after removing whatever was there (a
    stale part, or a symbolic link, which is removed, never followed), every
    write and the final size are checked, and the rename replaces a link at
    @path by the file instead of writing where it points.  @folder: the
    results folder @path must stay inside (_check_inside()).  Nothing is
    written once this script was told to stop (watch_make(), run_main()).
    On an error (a full disk) the part file is removed and the OSError
    raised; run_main() turns it into one line."""
    if STOPPING:
        raise KeyboardInterrupt
    if folder is not None:
        _check_inside(path, folder)
    data = text if isinstance(text, bytes) else text.encode("utf-8", "opsbench-bytes")
    tmp = path + ".part"
    if os.path.isdir(path) and not os.path.islink(path):
        raise UnsafeWrite(errno.EISDIR, "a folder is in the way", path)
    fd = None
    try:
        if os.path.lexists(tmp):
            if os.path.isdir(tmp) and not os.path.islink(tmp):
                raise UnsafeWrite(errno.EISDIR, "a folder is in the way", tmp)
            os.unlink(tmp)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o644)
        view = memoryview(data)
        while view:
            n = os.write(fd, view)
            if n <= 0:
                raise OSError(errno.EIO, "short write", tmp)
            view = view[n:]
        os.fsync(fd)
        size = os.fstat(fd).st_size
        if size != len(data):
            raise OSError(errno.EIO, f"wrote {len(data)} bytes but the file holds {size}", tmp)
        os.close(fd)
        fd = None
        if STOPPING:
            raise KeyboardInterrupt
        os.replace(tmp, path)
    except BaseException as e:
        if fd is not None:
            os.close(fd)
        if not isinstance(e, UnsafeWrite) or e.filename != tmp:
            try:
                if not os.path.isdir(tmp) or os.path.islink(tmp):
                    os.unlink(tmp)
            except OSError:
                pass
        if isinstance(e, OSError) and not isinstance(e, UnsafeWrite):
            raise OSError(e.errno, e.strerror, e.filename or tmp) from None
        raise


def write_json(path, obj, folder=None):
    """write_atomic() of obj as indented JSON."""
    write_atomic(path, json.dumps(obj, indent=1) + "\n", folder)


# ---- reading: regular files only, size-limited, decoded, depth-limited ----

class ReadError(Exception):
    """A file that cannot be read as what it should be: one line naming it."""


class ResultsError(ReadError):
    """A results file that is missing or not what it should be (a ReadError:
    run_main() prints it as one line, exit status 2)."""


# The largest file a script reads whole (MiB); a full run's benchmarks.json
# is a few MB, a 10^6-sample one about 100 MB.
READ_LIMIT_MIB = 512


def read_bytes(path, limit_mib=READ_LIMIT_MIB):
    """The bytes of regular file @path (a link to one is followed): a FIFO,
    a device or a folder is refused at once, without reading or blocking,
    and so is a file over @limit_mib MiB.  FileNotFoundError where it is
    missing; ReadError otherwise."""
    limit = limit_mib << 20
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise ReadError(f"{path}: {e.strerror}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ReadError(f"{path}: not a regular file; refusing to read it")
        if st.st_size > limit:
            raise ReadError(f"{path}: {st.st_size >> 20} MiB, more than the {limit_mib} MiB limit")
        chunks, total = [], 0
        while True:
            b = os.read(fd, 1 << 20)
            if not b:
                break
            total += len(b)
            if total > limit:
                raise ReadError(f"{path}: more than the {limit_mib} MiB limit")
            chunks.append(b)
        return b"".join(chunks)
    except OSError as e:
        raise ReadError(f"{path}: {e.strerror}") from None
    finally:
        os.close(fd)


def read_gzip(path, limit_mib=READ_LIMIT_MIB):
    """The decompressed bytes of gzip file @path, refused past @limit_mib MiB
    either way (a small file that inflates without end is refused too)."""
    import gzip
    import zlib
    raw = read_bytes(path, limit_mib)
    limit = limit_mib << 20
    try:
        with gzip.GzipFile(fileobj=io.BytesIO(raw)) as f:
            out = f.read(limit + 1)
    except gzip.BadGzipFile as e:
        raise ReadError(f"{path}: not a gzip file ({e})") from None
    except (EOFError, zlib.error) as e:
        raise ReadError(f"{path}: a damaged gzip file ({e or 'truncated'})") from None
    if len(out) > limit:
        raise ReadError(f"{path}: decompresses to more than the {limit_mib} MiB limit")
    return out


def decode(path, data):
    """@data as UTF-8 text, or ReadError naming @path and the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReadError(f"{path}: not UTF-8 text (byte 0x{data[e.start]:02x} at offset {e.start})") from None


def read_text_file(path, limit_mib=READ_LIMIT_MIB, lenient=False):
    """read_bytes() decoded: UTF-8, else ReadError; @lenient: bad bytes shown as \\xNN."""
    data = read_bytes(path, limit_mib)
    return data.decode("utf-8", "backslashreplace") if lenient else decode(path, data)


class _DuplicateKey(Exception):
    pass


class _NotANumber(Exception):
    pass


def _unique_keys(pairs):
    """object_pairs_hook of parse_json(): an object, refused where a key appears twice."""
    out = dict(pairs)
    if len(out) != len(pairs):          # rare: find the key to name it
        seen = set()
        for k, _ in pairs:
            if k in seen:
                raise _DuplicateKey(k)
            seen.add(k)
    return out


def _no_constant(name):
    """parse_constant of parse_json(): NaN, Infinity and -Infinity are no JSON."""
    raise _NotANumber(name)


def parse_json(path, text, nan_as_null=False):
    """json.loads(@text), or ReadError naming @path: not JSON, a key twice
    in one object (which would count is a guess: the last, silently), NaN or
    Infinity (not JSON, though Python writes them; with @nan_as_null they
    read as None: Google Benchmark writes NaN for the coefficient of
    variation of a counter that is always 0, and its raw output is read so),
    or nested deeper than the interpreter's recursion limit (about 1000
    levels).  The one JSON reading path of the scripts."""
    if isinstance(text, bytes):
        text = decode(path, text)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys,
                          parse_constant=(lambda _: None) if nan_as_null else _no_constant)
    except _DuplicateKey as e:
        raise ReadError(f"{path}: the key {e.args[0]!r} appears twice in one object; "
                        "refusing to guess which one counts") from None
    except _NotANumber as e:
        raise ReadError(f"{path}: {e.args[0]}: not a finite number (JSON has no NaN or Infinity)") from None
    except RecursionError:
        raise ReadError(f"{path}: JSON nested more than {sys.getrecursionlimit()} levels deep") from None
    except ValueError as e:
        raise ReadError(f"{path}: not valid JSON ({e})") from None


def read_json_file(path, limit_mib=READ_LIMIT_MIB, nan_as_null=False):
    """A JSON file read safely: read_bytes(), decode(), parse_json()."""
    return parse_json(path, read_bytes(path, limit_mib), nan_as_null)


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

    def lost_make():
        """Why a make above stopped, or None."""
        for pid, cgt in makes:
            st = _proc_status(pid)
            now = int(st.get("SigCgt", "0"), 16) if st else 0
            lost = [name for name, num in (("HUP", 1), ("INT", 2), ("QUIT", 3), ("TERM", 15))
                    if cgt & (1 << (num - 1)) and not now & (1 << (num - 1))]
            # A make that has exited (a zombie, State Z) shows no handler at
            # all: that is its end, not four signals.
            if not st or st.get("State", "").startswith("Z") or len(lost) > 1:
                return f"make (pid {pid}) ended"
            if lost:
                return f"SIG{lost[0]} to make (pid {pid})"
        return None

    def watch():
        while True:
            time.sleep(interval)
            try:
                why = lost_make()
            except MemoryError:     # the main thread runs out too, and says so: not this one
                continue
            if why:
                global STOPPING
                STOPPING = True
                print(f"{os.path.basename(sys.argv[0])}: stopping: {why}", file=sys.stderr)
                _thread.interrupt_main()
                return

    threading.Thread(target=watch, daemon=True).start()


def _stop_on_signal(signum, frame):
    global STOPPING
    STOPPING = True
    raise KeyboardInterrupt


def die(message):
    """Refuse bad input: @message on stderr, exit status 2."""
    print(message, file=sys.stderr)
    sys.exit(2)


def run_main(main, *args):
    """Run a script's main(): Ctrl-C, SIGTERM or SIGHUP end it with 130
    (and write_atomic() writes nothing after), a closed pipe with 1, a
    refused or unreadable input (ReadError, UnsafeWrite) with one line and
    2, and a failed write (a full disk) or no memory left with one line and
    1, without a traceback (the caller, bench.sh or results-dir.sh, marks
    the run).  Names that are not UTF-8 (a folder's) print as \\xNN.
    Also stops the script when a make above it stops (watch_make())."""
    import signal
    prog = os.path.basename(sys.argv[0])
    for f in (sys.stdout, sys.stderr):
        try:
            f.reconfigure(errors="opsbench-bytes")
        except (AttributeError, ValueError):
            pass
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, _stop_on_signal)
    try:
        watch_make()
        main(*args)
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(1)
    except ReadError as e:
        die(f"{prog}: {e}")
    except UnsafeWrite as e:
        die(f"{prog}: {e.filename}: {e.strerror}")
    except OSError as e:
        where = f"{e.filename}: " if e.filename else ""
        print(f"{prog}: {where}{e.strerror or e}", file=sys.stderr)
        sys.exit(1)
    except MemoryError:
        print(f"{prog}: out of memory (an input too large for the memory, or the ulimit -v, "
              "this process has)", file=sys.stderr)
        sys.exit(1)
