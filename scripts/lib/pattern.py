"""A user's regular expression over benchmark or scenario names, refused
when it could backtrack for minutes, and matched within a time limit.

Python's re, like std::regex in the suite (src/shim/gbench.cc), matches by
backtracking: a repeated group that holds '|' or a repetition ('(.|.)*X',
'(a+)+') takes time exponential in a name's length.  Such a pattern is
refused at once; any other gets FILTER_SECONDS to match every name.
"""
import re
import signal

FILTER_SECONDS = 10
_REPEAT = "*+?{"


def nested_repeat(pattern):
    """Does @pattern repeat (*, + or {) a group that holds '|' or a
    repetition of its own?  The same test as the suite's nested_repeat()."""
    inner = [False]                 # per open group: holds '|' or a repetition
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "(":
            inner.append(False)
        elif c == "|":
            inner[-1] = True
        elif c in _REPEAT:
            pass
        else:
            if c == "\\" and i + 1 < n:
                i += 1
            elif c == "[":          # a bracket expression, as one atom
                i += 1 + (pattern[i + 1:i + 2] == "^")
                i += pattern[i:i + 1] == "]"
                while i < n and pattern[i] != "]":
                    i += 1
            elif c == ")" and len(inner) > 1:
                held = inner.pop()
                if held and pattern[i + 1:i + 2] in ("*", "+", "{"):
                    return True
                inner[-1] |= held
            nxt = pattern[i + 1:i + 2]
            if nxt and nxt in _REPEAT:
                inner[-1] = True
        i += 1
    return False


def compile_filter(pattern):
    """@pattern compiled; ValueError with the reason when re refuses it or
    when it could backtrack for minutes."""
    if nested_repeat(pattern):
        raise ValueError("a repeated group that holds '|' or a repetition, as '(a|b)*' "
                         "or '(a+)+', takes a backtracking engine exponential time; "
                         "write it without one")
    try:
        return re.compile(pattern)
    except re.error as e:
        raise ValueError(str(e)) from None


class TooSlow(Exception):
    """Matching did not finish within FILTER_SECONDS."""


def _too_slow(signum, frame):
    raise TooSlow(f"still matching names after {FILTER_SECONDS} s: the pattern "
                  "backtracks; write a simpler one")


def matching(compiled, names):
    """The set of @names that @compiled finds (re.search), in at most
    FILTER_SECONDS (TooSlow past that)."""
    old = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(FILTER_SECONDS)
    try:
        return {s for s in names if compiled.search(s)}
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
