"""valgrind.py - which valgrind runs a driver, and how: the host's own for a
driver of the host's architecture, or for an arm64 driver on another host
Debian's valgrind:arm64 unpacked under build/ (scripts/deps.sh valgrind-arm64,
never installed) with its tool started directly under qemu-aarch64.  Also
counts the call instructions a callgrind profile executed.  What the
emulated counts are and are not: docs/method.md#counters.
"""
import atexit
import os
import platform
import shutil
import subprocess
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

# Where scripts/deps.sh valgrind-arm64 unpacks valgrind:arm64 (VALGRIND_ARM64
# overrides it: the placement test runs it from another path).
ARM64_DIR = os.path.join(ROOT, "build", "valgrind-arm64")

# ELF e_machine -> the Makefile's ARCH names.
ELF_MACHINES = {62: "x86_64", 183: "arm64"}


class ValgrindError(Exception):
    pass


def norm_arch(machine):
    """The Makefile's name of a machine: x86_64 or arm64 (aarch64)."""
    return {"aarch64": "arm64", "amd64": "x86_64"}.get(machine, machine)


HOST_ARCH = norm_arch(platform.machine())


def elf_arch(path):
    """The architecture @path is built for (ELF header), or ValgrindError."""
    try:
        with open(path, "rb") as f:
            head = f.read(20)
    except OSError as e:
        raise ValgrindError(f"{path}: {e.strerror}") from None
    if len(head) < 20 or head[:4] != b"\x7fELF" or head[5] != 1:
        raise ValgrindError(f"{path}: not a little-endian ELF executable")
    machine = int.from_bytes(head[18:20], "little")
    if machine not in ELF_MACHINES:
        raise ValgrindError(f"{path}: ELF machine {machine}: expected x86-64 or arm64")
    return ELF_MACHINES[machine]


def elf_static(path):
    """Whether @path has no program interpreter (a static executable)."""
    res = subprocess.run(["file", "-b", path], capture_output=True, text=True)
    return "statically linked" in res.stdout or "static-pie" in res.stdout


class Valgrind:
    """How to start callgrind on a driver of @arch: prefix (the command
    before callgrind's options), env (what valgrind itself needs; the driver
    gets an otherwise empty environment), emulated, and said (one line:
    which valgrind, and whether it emulates)."""

    def __init__(self, arch):
        self.arch = arch
        self.emulated = arch != HOST_ARCH
        if not self.emulated:
            vg = shutil.which("valgrind")
            if not vg:
                raise ValgrindError("valgrind not found: `make cachesim` installs valgrind with apt-get; "
                                    "install it by hand if that failed")
            ver = subprocess.run([vg, "--version"], capture_output=True, text=True).stdout.strip()
            self.prefix, self.env = [vg, "--tool=callgrind"], {}
            self.said = f"cachesim: {arch} code run natively under {ver or 'valgrind'} ({vg})"
            return
        if arch != "arm64" or HOST_ARCH != "x86_64":
            raise ValgrindError(f"no valgrind for {arch} code on this {HOST_ARCH} host")
        root = os.environ.get("VALGRIND_ARM64") or ARM64_DIR
        lib = os.path.join(root, "usr", "libexec", "valgrind")
        tool = os.path.join(lib, "callgrind-arm64-linux")
        qemu = shutil.which("qemu-aarch64")
        if not os.path.isfile(tool) or not qemu:
            raise ValgrindError(f"{'qemu-aarch64' if not qemu else tool} not found: `make cachesim ARCH=arm64` "
                                "installs qemu-user and unpacks valgrind:arm64 there (scripts/deps.sh "
                                "arm64 valgrind-arm64)")
        try:
            with open(os.path.join(root, "VERSION")) as f:
                version = f.read().strip()
        except OSError:
            version = "unknown version"
        qver = subprocess.run([qemu, "--version"], capture_output=True, text=True).stdout.split("\n")[0]
        said_root = os.path.relpath(root, ROOT) if root.startswith(ROOT) else root
        # Valgrind puts its folder's path into the program's environment
        # (LD_PRELOAD), and the program's path is its argv[0]: both move its
        # first stack, and with it a miss or so per run.  Reached through
        # links whose paths have the same length wherever the checkout is
        # (program() copies the driver there), the counts do not depend on it.
        link_dir = tempfile.mkdtemp(prefix="opsbench-vg-", dir="/tmp")
        atexit.register(shutil.rmtree, link_dir, True)
        self.link_dir = link_dir
        os.symlink(os.path.realpath(root), os.path.join(link_dir, "vg"))
        root = os.path.join(link_dir, "vg")
        lib = os.path.join(root, "usr", "libexec", "valgrind")
        tool = os.path.join(lib, "callgrind-arm64-linux")
        # The launcher's own exec of the tool needs binfmt_misc, so the tool
        # is started directly; VALGRIND_LAUNCHER is what it re-executes.
        # qemu's default CPU ("max") reports a cache line in CTR_EL0 that
        # valgrind's cache flush does not accept ('cls == 64 || cls == 128'
        # fails where static_call patches a trampoline): an N1 reports
        # 64-byte lines.  The guest's counts are valgrind's, whatever CPU
        # runs valgrind itself.
        self.prefix = [qemu, "-cpu", "neoverse-n1", tool]
        self.env = {"VALGRIND_LIB": lib, "VALGRIND_LAUNCHER": os.path.join(root, "usr", "bin", "valgrind")}
        self.said = (f"cachesim: emulating arm64: {qver.strip()} runs Debian's valgrind:arm64 {version} "
                     f"(callgrind, unpacked in {said_root})")


    def program(self, driver):
        """The path to start @driver by: under emulation a copy at a path of
        a fixed length (see above; a link would be resolved), natively the
        driver itself."""
        if not self.emulated:
            return driver
        copy = os.path.join(self.link_dir, "opsbench-run")
        if not os.path.exists(copy):
            shutil.copy2(driver, copy)
        return copy


# Call instructions, as objdump spells them.
CALLS = {"x86_64": ("call", "callq"), "arm64": ("bl", "blr", "blraa", "blraaz", "blrab", "blrabz")}
# Of those, the indirect ones (x86-64: an operand that starts with "*").
INDIRECT_CALLS = {"arm64": ("blr", "blraa", "blraaz", "blrab", "blrabz")}
# Return instructions.
RETURNS = {"x86_64": ("ret", "retq"), "arm64": ("ret", "retaa", "retab")}
# Functions whose calls are no lookup's (cachesim.py toggles collection off in them).
NOT_COUNTED = ("ob_pollute",)
# The retpoline build's thunks (src/arch/x86_64/retpoline.S): a call or jump
# to one is an indirect call or jump of the source.
THUNK_PREFIX = "<__x86_indirect_thunk_"
RETURN_THUNK = "<__x86_return_thunk>"
_sites = {}


# Prefixes objdump writes before a mnemonic (ibt: "notrack call *%rax").
PREFIXES = ("notrack", "bnd", "ds", "cs", "lock", "rep", "repz")
_disassembly = {}


def disassembly(path, arch):
    """[(address, mnemonic, operands, line)] of every instruction of the ELF
    file @path (objdump -d; file addresses, as callgrind writes them), the
    prefixes and objdump's "#" comments left out of mnemonic and operands."""
    key = (path, arch)
    if key in _disassembly:
        return _disassembly[key]
    objdump = "objdump" if arch == HOST_ARCH else \
        {"arm64": "aarch64-linux-gnu-objdump", "x86_64": "x86_64-linux-gnu-objdump"}[arch]
    if not shutil.which(objdump):
        raise ValgrindError(f"{objdump} not found (`make cachesim ARCH={arch}` installs it)")
    res = subprocess.run([objdump, "-d", "--no-show-raw-insn", path], capture_output=True, text=True)
    if res.returncode:
        raise ValgrindError(f"{objdump} -d {path}: {res.stderr.strip()[:200]}")
    out = []
    for line in res.stdout.splitlines():
        parts = line.split("\t")
        if len(parts) < 2 or not parts[0].rstrip().endswith(":"):
            continue
        words = parts[1].split("#")[0].split() if arch == "x86_64" else parts[1].split()
        while words and words[0] in PREFIXES:
            words = words[1:]
        if words:
            out.append((int(parts[0].strip().rstrip(":"), 16), words[0], " ".join(words[1:]), line))
    _disassembly[key] = out
    return out


def control_sites(path, arch):
    """{address: kind} of the control transfers the model counts in the ELF
    file @path (file addresses, as callgrind writes them), by objdump.
    Kinds: "call" (a direct call), "icall" (an indirect call), "thunk_call"
    and "thunk_jmp" (a call or a jump to a retpoline thunk: an indirect
    call or jump of the source), "ret" (a return) and "rethunk" (a jump to
    the return thunk: the rethunk and srso builds' return)."""
    key = (path, arch)
    if key in _sites:
        return _sites[key]
    sites = {}
    for addr, mnem, operand, line in disassembly(path, arch):
        # The call of the pollution between lookups is not a lookup's.
        if any(f"<{fn}>" in line for fn in NOT_COUNTED):
            continue
        # A thunk's own jump back into itself (<thunk+0x5>) is no call of the source.
        to_thunk = THUNK_PREFIX in operand and "+" not in operand.split(THUNK_PREFIX, 1)[1]
        if mnem in CALLS[arch]:
            if to_thunk:
                sites[addr] = "thunk_call"
            elif operand.startswith("*") or mnem in INDIRECT_CALLS.get(arch, ()):
                sites[addr] = "icall"
            else:
                sites[addr] = "call"
        elif mnem in RETURNS[arch]:
            sites[addr] = "ret"
        elif mnem in ("jmp", "jmpq"):
            if to_thunk:
                sites[addr] = "thunk_jmp"
            elif RETURN_THUNK in operand:
                sites[addr] = "rethunk"
    _sites[key] = sites
    return sites


CALL_KINDS = ("call", "icall", "thunk_call")


def control_counts(profile, arch):
    """Executions of each kind of control_sites() while collecting, from a
    callgrind profile written with --dump-instr=yes --compress-strings=no
    --compress-pos=no: the Ir of every such instruction.  Counted from the
    instructions, not from callgrind's call arcs: on arm64 callgrind also
    takes some plain branches (b) for calls.  Returns {kind: count} and
    "calls": every call instruction (CALL_KINDS)."""
    n = {"call": 0, "icall": 0, "thunk_call": 0, "thunk_jmp": 0, "ret": 0, "rethunk": 0, "calls": 0}
    ob, skip = None, False
    with open(profile) as f:
        for line in f:
            if skip:            # the inclusive cost of the call above: not an instruction's own
                skip = False
                continue
            if line.startswith("ob="):
                ob = line[3:].strip()
            elif line.startswith("calls="):
                skip = True
            elif line[:2] == "0x" and ob and os.path.isfile(ob):
                f0 = line.split()
                if len(f0) < 3:
                    continue
                kind = control_sites(ob, arch).get(int(f0[0], 16))
                if kind:
                    n[kind] += int(f0[2])
                    if kind in CALL_KINDS:
                        n["calls"] += int(f0[2])
    return n


def read_misses_by_line(profile):
    """{(source file, line): D1 read misses} of a callgrind profile written
    with --dump-instr=yes --compress-strings=no --compress-pos=no (positions
    "instr line"), the inlined file (fi=, fe=) where there is one: what the
    cost model splits into misses on the lookup's dependent chain and misses
    beside it (cachesim.py chain_split())."""
    events, fname, skip = None, None, False
    out = {}
    with open(profile) as f:
        for line in f:
            if skip:
                skip = False
                continue
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith(("fl=", "fi=", "fe=")):
                fname = line[3:].strip()
            elif line.startswith("calls="):
                skip = True
            elif line[:2] == "0x" and events and "D1mr" in events:
                p = line.split()
                k = events.index("D1mr") + 2
                if len(p) > k and int(p[k]):
                    key = (fname, int(p[1]))
                    out[key] = out.get(key, 0) + int(p[k])
    return out
