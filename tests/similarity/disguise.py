#!/usr/bin/env python3
"""Disguised copies of C programs, for the similarity test set (issue 20).

    disguise.py set OUT [--solutions DIR]
        OUT/NAME/*.c: every independent solution of DIR (default: the
        solutions/ folder beside this script), for each a series of
        disguised copies (one transformation each, then all together) and
        partial copies (a third of one solution pasted into another), and
        OUT/../labels.tsv: one line per student, "NAME ORIGIN KIND [FROM]".
    disguise.py class OUT N [--seed S]
        a synthetic class of N students for the timing benchmark: each one
        a random solution under a random chain of transformations with
        random names; about one in ten pastes a third of another.

The transformations work on C tokens (comments, strings, preprocessor lines
kept whole), so that a disguised copy still compiles where the original
did:
  rename    every identifier the program defines, consistently
  reorder   top-level functions and global declarations shuffled
            (prototypes added on top so that the file still compiles)
  format    comments dropped or rewritten, braces and indentation redone
  forwhile  `for (a; b; c) {...}` as `a; while (b) {... c;}`
  swap      `if (c) {A} else {B}` as `if (!(c)) {B} else {A}`
  split     the block between /*@split NAME: PARAMS*/ and /*@end*/ moved
            into a function of its own (markers written in the solutions)
  merge     the function after /*@inline*/ inlined at its one call
  deadcode  unreachable statements and an unused function inserted
  prints    extra debugging prints inserted
"""
import os
import random
import re
import sys

KEYWORDS = set("""auto break case char const continue default do double else enum
extern float for goto if inline int long register restrict return short signed
sizeof static struct switch typedef union unsigned void volatile while _Bool
bool true false NULL""".split())
LIBRARY = set("""printf puts sprintf snprintf fprintf fgets getline stdin stdout
stderr strtok strtok_r strchr strcmp strcspn strtoull memset memcpy qsort isdigit
isxdigit tolower size_t FILE main free malloc exit int64_t uint64_t
__LINE__ _POSIX_C_SOURCE""".split())

TOKEN = re.compile(r"""
    (?P<pp>^[ \t]*\#[^\n]*(?:\\\n[^\n]*)*)
  | (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*')
  | (?P<ws>\s+)
  | (?P<id>[A-Za-z_]\w*)
  | (?P<num>\.?\d(?:[\w.]|[eEpP][+-])*)
  | (?P<punct>\.\.\.|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^]=|[][(){}.&*+\-~!/%<>^|?:;=,])
""", re.S | re.M | re.X)


def lex(src):
    out, pos = [], 0
    while pos < len(src):
        m = TOKEN.match(src, pos)
        if not m:
            out.append(("punct", src[pos]))
            pos += 1
            continue
        out.append((m.lastgroup, m.group()))
        pos = m.end()
    return out


def sig(toks):
    """Indices of the significant tokens (not white space or comments)."""
    return [i for i, t in enumerate(toks) if t[0] not in ("ws", "comment")]


def text(toks):
    return "".join(t[1] for t in toks)


def code(toks):
    """The significant tokens only."""
    return [t for t in toks if t[0] not in ("ws", "comment")]


def join(toks):
    """Significant tokens back to text, one space between words."""
    out = []
    for k, v in toks:
        if k == "pp":
            out.append("\n" + v.strip() + "\n")
            continue
        if out and (out[-1][-1:].isalnum() or out[-1][-1:] == "_") and (v[0].isalnum() or v[0] in "_\"'"):
            out.append(" ")
        out.append(v)
        if v in (";", "{", "}"):
            out.append("\n")
    return "".join(out)


def match_close(toks, i, open_, close):
    depth = 0
    for j in range(i, len(toks)):
        if toks[j][1] == open_:
            depth += 1
        elif toks[j][1] == close:
            depth -= 1
            if depth == 0:
                return j
    raise ValueError("unbalanced " + open_)


# ---- rename ----

def rename_map(files, rng):
    names = set()
    for src in files.values():
        for k, v in lex(src):
            if k == "id" and v not in KEYWORDS and v not in LIBRARY:
                names.add(v)
    words = ["val", "tmp", "buf", "cnt", "idx", "res", "arr", "num", "ptr",
             "acc", "pos", "lim", "key", "sum", "obj", "elt", "cur", "nxt"]
    mapping, used = {}, set()
    for n in sorted(names):
        while True:
            new = rng.choice(words) + rng.choice(["", "_", "X", "Q"]) + str(rng.randrange(1000))
            if new not in used:
                break
        used.add(new)
        mapping[n] = new if not n.isupper() else new.upper()
    return mapping


def rename(src, mapping):
    out = []
    for k, v in lex(src):
        if k == "id":
            v = mapping.get(v, v)
        elif k == "pp" and not re.match(r"\s*#\s*include", v):
            # Names outside the directive's string literals.
            v = re.sub(r'"(?:\\.|[^"\\])*"|[A-Za-z_]\w*', lambda m: m.group()
                       if m.group()[0] == '"' or m.group() in ("define", "ifndef", "endif", "ifdef", "if")
                       else mapping.get(m.group(), m.group()), v)
        out.append(v)
    return "".join(out)


# ---- top-level chunks ----

def chunks(src):
    """Top-level pieces: (kind, tokens): 'pp', 'func' or 'decl'."""
    toks = code(lex(src))
    out, cur, i = [], [], 0
    while i < len(toks):
        t = toks[i]
        if t[0] == "pp" and not cur:
            out.append(("pp", [t]))
            i += 1
            continue
        cur.append(t)
        if t[1] == "{":
            j = match_close(toks, i, "{", "}")
            cur.extend(toks[i + 1:j + 1])
            i = j + 1
            is_func = cur[-2 - (j - i)][1] if False else None
            # A function: the "{" follows ")" and nothing follows "}".
            k = len(cur) - (j - (i - 1 - (j - i))) if False else None
            if any(x[1] == "(" for x in cur) and cur[cur.index(t) - 1][1] == ")" \
                    and "=" not in [x[1] for x in cur[:cur.index(t)]]:
                out.append(("func", cur))
                cur = []
            continue
        if t[1] == ";":
            out.append(("decl", cur))
            cur = []
        i += 1
    if cur:
        out.append(("decl", cur))
    return out


def reorder(src, rng):
    parts = chunks(src)
    funcs = [p for p in parts if p[0] == "func"]
    head = [p for p in parts if p[0] != "func"]
    globals_ = [p for p in head if p[0] == "decl" and p[1][0][1] not in ("typedef", "struct", "enum", "union")
                and "(" not in [x[1] for x in p[1]] and "{" not in [x[1] for x in p[1]]]
    rest = [p for p in head if p not in globals_]
    rng.shuffle(funcs)
    rng.shuffle(globals_)
    protos = []
    for _, f in funcs:
        header = f[:f.index(next(x for x in f if x[1] == "{"))]
        if header[-1][1] == ")" and not any(x[1] == "main" for x in header):
            protos.append(("decl", header + [("punct", ";")]))
    pps = [p for p in rest if p[0] == "pp"]
    types = [p for p in rest if p[0] != "pp" and p[1][0][1] in ("typedef", "struct", "enum", "union")]
    others = [p for p in rest if p not in pps and p not in types]
    out = pps + types + protos + globals_ + others + funcs
    return "\n".join(join(p[1]) for p in out)


# ---- format ----

COMMENTS = ["/* helper */", "// compute the result", "/* check the bounds */",
            "// loop over every thread", "/* see the handout */", "// edge case"]


def reformat(src, rng):
    toks = code(lex(src))
    out, depth, paren, line = [], 0, 0, ""
    indent = rng.choice(["  ", "    ", "\t"])
    allman = rng.random() < 0.5

    def flush():
        nonlocal line
        if line.strip():
            out.append(indent * depth + line.strip())
        line = ""
    prev = None
    for k, v in toks:
        if k == "pp":
            flush()
            out.append(v.strip())
            prev = None
            continue
        if v == "(":
            paren += 1
        elif v == ")":
            paren -= 1
        if v == "}":
            flush()
            depth = max(depth - 1, 0)
            line = "}"
            flush()
            prev = v
            continue
        if v == "{":
            if allman:
                flush()
            line += (" " if line and not allman else "") + "{"
            flush()
            depth += 1
            if rng.random() < 0.15:
                out.append(indent * depth + rng.choice(COMMENTS))
            prev = v
            continue
        if prev is not None and line and (prev[-1].isalnum() or prev[-1] in "_)]\"'") and \
                (v[0].isalnum() or v[0] in "_\"'(" and prev[-1] not in "(["):
            line += " "
        elif line and v in ("=", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "+=", "-=", "?", ":") :
            line += " "
        line += v
        if v in ("=", "==", "!=", "<", ">", "<=", ">=", "&&", "||", "+=", "-=", ",", "?", ":"):
            line += " "
        if v == ";" and paren == 0:
            flush()
        prev = v
    flush()
    return "\n".join(out) + "\n"


# ---- for -> while, swapped branches ----

def for_to_while(src):
    toks = code(lex(src))
    i = 0
    while i < len(toks):
        if toks[i][1] == "for" and i + 1 < len(toks) and toks[i + 1][1] == "(":
            close = match_close(toks, i + 1, "(", ")")
            header = toks[i + 2:close]
            semis = [j for j, t in enumerate(header) if t[1] == ";"]
            if len(semis) == 2 and close + 1 < len(toks) and toks[close + 1][1] == "{":
                end = match_close(toks, close + 1, "{", "}")
                body = toks[close + 2:end]
                if not any(t[1] == "continue" for t in body):
                    init = header[:semis[0]]
                    cond = header[semis[0] + 1:semis[1]] or [("num", "1")]
                    step = header[semis[1] + 1:]
                    new = [("punct", "{")] + init + [("punct", ";"), ("id", "while"), ("punct", "(")] + cond + \
                        [("punct", ")"), ("punct", "{")] + body + step + [("punct", ";"), ("punct", "}"), ("punct", "}")]
                    toks[i:end + 1] = new
        i += 1
    return join(toks)


def swap_branches(src):
    toks = code(lex(src))
    i = 0
    while i < len(toks):
        if toks[i][1] == "if" and toks[i + 1][1] == "(":
            close = match_close(toks, i + 1, "(", ")")
            if toks[close + 1][1] == "{":
                end = match_close(toks, close + 1, "{", "}")
                if end + 2 < len(toks) and toks[end + 1][1] == "else" and toks[end + 2][1] == "{":
                    end2 = match_close(toks, end + 2, "{", "}")
                    cond = toks[i + 2:close]
                    a, b = toks[close + 1:end + 1], toks[end + 2:end2 + 1]
                    new = [("id", "if"), ("punct", "("), ("punct", "!"), ("punct", "(")] + cond + \
                        [("punct", ")"), ("punct", ")")] + b + [("id", "else")] + a
                    toks[i:end2 + 1] = new
        i += 1
    return join(toks)


# ---- split, merge ----

SPLIT = re.compile(r"/\*@split (\w+): (.*?)\*/(.*?)/\*@end\*/", re.S)


def split(src):
    m = SPLIT.search(src)
    if not m:
        return src
    name, params, block = m.group(1), m.group(2).strip(), m.group(3)
    args = ", ".join(re.findall(r"(\w+)\s*(?:,|$)", params))
    call = "%s(%s);" % (name, args)
    src = src[:m.start()] + call + src[m.end():]
    func = "static void %s(%s)\n{\n%s}\n\n" % (name, params, block)
    # Before the top-level definition that held the block.
    depth, start = 0, 0
    for i, ch in enumerate(src[:m.start()]):
        if ch == "{":
            if depth == 0:
                start = src.rfind("\n\n", 0, i) + 1
            depth += 1
        elif ch == "}":
            depth -= 1
    return src[:start] + func + src[start:]


def merge(src):
    pos = src.find("/*@inline*/")
    if pos < 0:
        return src
    rest = src[pos + len("/*@inline*/"):]
    toks = code(lex(rest))
    brace = next(i for i, t in enumerate(toks) if t[1] == "{")
    end = match_close(toks, brace, "{", "}")
    header, body = toks[:brace], toks[brace + 1:end]
    name_i = next(i for i, t in enumerate(header) if t[1] == "(") - 1
    name = header[name_i][1]
    plist = header[name_i + 2:-1]
    params, cur = [], []
    for t in plist + [("punct", ",")]:
        if t[1] == ",":
            if cur and cur != [("id", "void")]:
                params.append(cur)
            cur = []
        else:
            cur.append(t)
    # The text after the function, without it.
    after = rest
    count = 0
    for i, t in enumerate(lex(rest)):
        pass
    depth, cut = 0, None
    for i, ch in enumerate(rest):
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                cut = i + 1
                break
    before = src[:pos]
    after = rest[cut:]
    whole = before + after
    allt = code(lex(whole))
    for i in range(len(allt) - 1):
        if allt[i][1] == name and allt[i + 1][1] == "(":
            close = match_close(allt, i + 1, "(", ")")
            args, cur, depth = [], [], 0
            for t in allt[i + 2:close]:
                if t[1] in "([":
                    depth += 1
                if t[1] in ")]":
                    depth -= 1
                if t[1] == "," and depth == 0:
                    args.append(cur)
                    cur = []
                else:
                    cur.append(t)
            if cur:
                args.append(cur)
            # Each parameter bound to a fresh name: an argument may
            # spell the parameter's own name ("w" for "&w").
            binds, fresh = [], {}
            for p, a in zip(params, args):
                fresh[p[-1][1]] = p[-1][1] + "_arg"
                binds += p[:-1] + [("id", fresh[p[-1][1]]), ("punct", "=")] + a + [("punct", ";")]
            body2 = [("id", fresh[t[1]]) if t[0] == "id" and t[1] in fresh else t for t in body]
            new = [("punct", "{")] + binds + body2 + [("punct", "}")]
            end_call = close + 1 if allt[close + 1][1] == ";" else close
            allt[i:end_call + 1] = new
            # an `else`-less call in `if (...) call;` stays a statement
            return join(allt)
    return src


# ---- dead code, prints ----

def boundaries(toks):
    """Indices after which a statement may be inserted."""
    stack, openers, out, last_opener = [], [], [], ""
    for i, (k, v) in enumerate(toks):
        prev = toks[i - 1] if i else ("", "")
        if v == "(":
            openers.append(prev)
        elif v == ")":
            last_opener = openers.pop() if openers else ("", "")
        elif v == "{":
            if prev[1] == ")":
                # a block after if/while/for/switch or a function's
                # parameters; not a compound literal "(struct x){...}"
                block = last_opener[1] in ("if", "while", "for", "switch") or \
                    (last_opener[0] == "id" and last_opener[1] not in KEYWORDS)
            else:
                block = prev[1] in ("else", "do", ";", "{", "}")
            block = block and (not stack or stack[-1])
            stack.append(block)
        elif v == "}":
            if not (stack.pop() if stack else False):
                continue
        if stack and all(stack) and not openers and v in (";", "{", "}"):
            nxt = toks[i + 1][1] if i + 1 < len(toks) else ""
            if nxt not in ("else", "while", "}"):
                out.append(i)
    return out


DEAD = ["if (0) { int unused_%d = 3; unused_%d++; }",
        "{ int spare_%d = 0; spare_%d += 0; }",
        "while (0) { int never_%d = 1; never_%d--; }",
        "for (int skip_%d = 0; skip_%d < 0; skip_%d++) { }"]


def insert(src, rng, make, rate):
    toks = code(lex(src))
    spots = boundaries(toks)
    chosen = set(rng.sample(spots, max(1, int(len(spots) * rate)))) if spots else set()
    out = []
    for i, t in enumerate(toks):
        out.append(t)
        if i in chosen:
            out.extend(lex(" " + make(i) + " "))
    return join(code(out))


def deadcode(src, rng):
    src = insert(src, rng, lambda i: (rng.choice(DEAD).replace("%d", str(i))), 0.12)
    return src + "\nstatic int never_called_%d(int x)\n{\n\treturn x * 2 + 1;\n}\n" % rng.randrange(100)


def prints(src, rng):
    msgs = ["here", "checkpoint", "value", "debug", "step"]
    return insert(src, rng, lambda i: 'fprintf(stderr, "%s %%d\\n", %d);' % (rng.choice(msgs), i), 0.10)


TRANSFORMS = {
    "rename": None, "reorder": reorder, "format": reformat, "forwhile": for_to_while,
    "swap": swap_branches, "split": split, "merge": merge, "deadcode": deadcode,
    "prints": prints,
}
STEPS = ["split", "merge", "forwhile", "swap", "deadcode", "prints", "reorder", "rename", "format"]
MARKERS = re.compile(r"/\*@(?:split [^*]*|end|inline)\*/")


def apply(files, steps, rng):
    files = dict(files)
    for step in STEPS:
        if step not in steps:
            continue
        if step == "rename":
            mapping = rename_map(files, rng)
            files = {n: rename(s, mapping) for n, s in files.items()}
            continue
        f = TRANSFORMS[step]
        # Headers only get renamed: their guards and prototypes stay.
        files = {n: s if n.endswith(".h") else f(s, rng) if f.__code__.co_argcount == 2
                 else f(s) for n, s in files.items()}
    return {n: MARKERS.sub("", s) for n, s in files.items()}


def read_solution(d):
    return {n: open(os.path.join(d, n)).read() for n in sorted(os.listdir(d)) if n.endswith((".c", ".h"))}


def write(out, name, files):
    d = os.path.join(out, name)
    os.makedirs(d, exist_ok=True)
    for n, s in files.items():
        with open(os.path.join(d, n), "w") as f:
            f.write(s)


def third_of(files, rng):
    """About a third of a solution's lines: whole functions in a row."""
    src = "\n".join(s for n, s in files.items() if n.endswith(".c"))
    funcs = [join(p[1]) for p in chunks(MARKERS.sub("", src)) if p[0] == "func"
             and not any(t[1] == "main" for t in p[1][:6])]
    total = sum(f.count("\n") for f in funcs)
    start = rng.randrange(len(funcs))
    out, lines = [], 0
    for k in range(len(funcs)):
        f = funcs[(start + k) % len(funcs)]
        out.append(f)
        lines += f.count("\n")
        if lines * 3 >= total:
            break
    return "\n".join(out)


def paste(host, piece):
    """piece into the host's main .c file, before main."""
    name = "main.c" if "main.c" in host else sorted(host)[0]
    src = MARKERS.sub("", host[name])
    at = src.rfind("int main")
    files = dict(host)
    files[name] = src[:at] + piece + "\n\n" + src[at:]
    return {n: MARKERS.sub("", s) for n, s in files.items()}


def make_set(out, soldir):
    sols = sorted(d for d in os.listdir(soldir) if os.path.isdir(os.path.join(soldir, d)))
    labels = []
    for si, s in enumerate(sols):
        files = read_solution(os.path.join(soldir, s))
        write(out, s, apply(files, [], random.Random(0)))
        labels.append((s, s, "original", ""))
        for step in STEPS:
            rng = random.Random("%s-%s" % (s, step))
            new = apply(files, [step], rng)
            if new != apply(files, [], rng):
                write(out, "%s-%s" % (s, step), new)
                labels.append(("%s-%s" % (s, step), s, "copy", step))
        write(out, "%s-all" % s, apply(files, STEPS, random.Random("%s-all" % s)))
        labels.append(("%s-all" % s, s, "copy", "all"))
    for si, s in enumerate(sols):
        donor = sols[(si + 1) % len(sols)]
        rng = random.Random("partial-" + s)
        piece = third_of(read_solution(os.path.join(soldir, donor)), rng)
        piece = apply({"x.c": piece}, ["rename", "format"], rng)["x.c"]
        host = read_solution(os.path.join(soldir, s))
        name = "partial-%s-from-%s" % (s, donor)
        write(out, name, paste(host, piece))
        labels.append((name, s, "partial", donor))
    with open(os.path.join(os.path.dirname(os.path.abspath(out)), "labels.tsv"), "w") as f:
        for row in labels:
            f.write("\t".join(row) + "\n")


def make_class(out, n, seed, soldir):
    sols = sorted(d for d in os.listdir(soldir) if os.path.isdir(os.path.join(soldir, d)))
    files = {s: read_solution(os.path.join(soldir, s)) for s in sols}
    rng = random.Random(seed)
    for i in range(n):
        s = rng.choice(sols)
        steps = [x for x in STEPS if rng.random() < 0.6] + ["rename"]
        new = apply(files[s], steps, rng)
        if rng.random() < 0.1:
            donor = rng.choice(sols)
            new = paste(new, apply({"x.c": third_of(files[donor], rng)}, ["rename"], rng)["x.c"])
        write(out, "student%04d" % i, new)


def main(argv):
    here = os.path.dirname(os.path.abspath(__file__))
    soldir = os.path.join(here, "solutions")
    if "--solutions" in argv:
        soldir = argv[argv.index("--solutions") + 1]
    if len(argv) >= 3 and argv[1] == "set":
        make_set(argv[2], soldir)
    elif len(argv) >= 4 and argv[1] == "class":
        seed = int(argv[argv.index("--seed") + 1]) if "--seed" in argv else 1
        make_class(argv[2], int(argv[3]), seed, soldir)
    else:
        sys.stderr.write(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
