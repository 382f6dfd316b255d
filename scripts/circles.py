#!/usr/bin/env python3
"""Print every set of files in src/ that import each other; exit 1 if there is one.

A file imports another when it names a module or an item of it: in a `use` (crate::,
super::, self::, or a child module's name), in a `pub use` re-export, as a path in code
(`crate::a::b::f()`, `super::State`, `child::f()`), or in a serde attribute's path
(`#[serde(with = "tables::shared_course")]`). A path resolves to the file that
defines its longest module prefix, so `crate::store::RaceId` is src/store/mod.rs and
`crate::store::ids::RaceId` is src/store/ids.rs. A bare `mod child;` is the module tree,
not an import. Inline modules (`mod tests { ... }`) belong to their file.

Usage: scripts/circles.py [--edges] [SRC]   (SRC defaults to the crate's src/)
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"


def strip(text):
    """Blank out comments, strings and char literals, keeping newlines and offsets."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "r" and re.match(r'r#*"', text[i:]) and not re.match(r"[A-Za-z0-9_]", text[i - 1 : i] or " "):
            hashes = re.match(r"r(#*)\"", text[i:]).group(1)
            end = text.find('"' + hashes, i + 2 + len(hashes))
            j = n if end < 0 else end + 1 + len(hashes)
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            j += 1
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c == "'":
            m = re.match(r"'(\\.[^']*|[^\\'])'", text[i:])
            if m:  # a char literal; otherwise a lifetime
                out.append(" " * len(m.group(0)))
                i += len(m.group(0))
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Crate:
    def __init__(self, src):
        self.src = src
        self.files = {}  # module path (tuple) -> file
        self.inline = {}  # module path -> file holding it inline
        self.children = {}  # module path -> set of child names
        self.texts = {}  # file -> stripped text

    def load(self, root_file):
        self._file(root_file, ())

    def _file(self, path, modpath):
        if not os.path.exists(path):
            return
        self.files[modpath] = path
        self.children.setdefault(modpath, set())
        with open(path, encoding="utf-8") as f:
            text = strip(f.read())
        self.texts[path] = text
        is_dir_owner = os.path.basename(path) in ("mod.rs", "lib.rs", "main.rs")
        base = os.path.dirname(path)
        own_dir = base if is_dir_owner else os.path.join(base, os.path.basename(path)[:-3])
        # Module declarations, tracking inline blocks. Offsets in the stripped text are
        # those of the raw text, so a #[path] attribute's string is read from the raw.
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        stack, depth, pending_path = [], 0, None
        pattern = r'#\s*\[\s*path\s*=\s*("\s*")\s*\]|\bmod\s+(' + IDENT + r')\s*([;{])|[{}]'
        for m in re.finditer(pattern, text):
            tok = m.group(0)
            if m.group(1) is not None:
                pending_path = raw[m.start(1) + 1 : m.end(1) - 1]
                continue
            if tok == "{":
                depth += 1
                continue
            if tok == "}":
                depth -= 1
                if stack and stack[-1][1] > depth:
                    stack.pop()
                continue
            name, kind = m.group(2), m.group(3)
            inner = [s[0] for s in stack]
            parent = modpath + tuple(inner)
            self.children.setdefault(parent, set()).add(name)
            child = parent + (name,)
            if kind == "{":
                depth += 1
                stack.append((name, depth))
                self.inline[child] = path
                self.children.setdefault(child, set())
            else:
                folder = os.path.join(own_dir, *inner)
                if pending_path is not None:
                    target = os.path.join(folder if inner else base, pending_path)
                else:
                    target = os.path.join(folder, name + ".rs")
                    if not os.path.exists(target):
                        target = os.path.join(folder, name, "mod.rs")
                self._file(os.path.normpath(target), child)
            pending_path = None

    def file_of(self, modpath):
        if modpath in self.files:
            return self.files[modpath]
        return self.inline.get(modpath)


def expand_use(tree):
    """`a::{b, c::{d, e}}` -> [[a,b],[a,c,d],[a,c,e]]"""
    tree = re.sub(r"\s+as\s+" + IDENT, "", tree)
    tree = re.sub(r"\s+", "", tree)

    def parse(s, i):
        paths, prefix = [], []
        cur = ""
        while i < len(s):
            c = s[i]
            if s.startswith("::", i):
                if cur:
                    prefix.append(cur)
                cur = ""
                i += 2
            elif c == "{":
                inner, i = parse(s, i + 1)
                paths.extend(prefix + p for p in inner)
                prefix, cur = None, ""
            elif c == "}":
                if prefix is not None and (cur or prefix):
                    paths.append(prefix + ([cur] if cur else []))
                return paths, i + 1
            elif c == ",":
                if prefix is not None and (cur or prefix):
                    paths.append(prefix + ([cur] if cur else []))
                prefix, cur = [], ""
                i += 1
            else:
                cur += c
                i += 1
        if prefix is not None and (cur or prefix):
            paths.append(prefix + ([cur] if cur else []))
        return paths, i

    return [[seg for seg in p if seg] for p in parse(tree, 0)[0]]


def scopes(text):
    """Yield (offset, inline module stack) changes: a function from offset to stack."""
    marks = []
    stack, depth = [], 0
    for m in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{|[{}]", text):
        tok = m.group(0)
        if tok == "}":
            depth -= 1
            if stack and stack[-1][1] > depth:
                stack.pop()
                marks.append((m.end(), tuple(s[0] for s in stack)))
        else:
            depth += 1
            if tok != "{":
                stack.append((m.group(1), depth))
                marks.append((m.end(), tuple(s[0] for s in stack)))
    return marks


def inline_at(marks, offset):
    cur = ()
    for pos, st in marks:
        if pos > offset:
            break
        cur = st
    return cur


def edges(crate):
    result = {}  # file -> {file: [reasons]}
    for modpath, path in crate.files.items():
        text = crate.texts[path]
        text = text.replace("$crate", "crate")
        marks = scopes(text)
        found, spans = [], []
        # `use` items, groups expanded
        for m in re.finditer(r"\buse\s+([^;]*);", text):
            found.append((m.start(), expand_use(m.group(1))))
            spans.append((m.start(), m.end()))
        # paths in code; the lookbehind keeps `a::b` from matching inside `x::a::b`
        for m in re.finditer(r"(?<![A-Za-z0-9_:])(" + IDENT + r"(?:\s*::\s*" + IDENT + r")+)", text):
            if any(a <= m.start() < b for a, b in spans):
                continue
            segs = [s.strip() for s in m.group(1).split("::")]
            found.append((m.start(), [segs]))
        # paths serde reads from attribute strings: `#[serde(with = "tables::shared")]`
        with open(path, encoding="utf-8") as f:
            raw = f.read()
        for m in re.finditer(r"#\[serde\([^\]]*\]", raw):
            for q in re.finditer(r'\b(?:with|serialize_with|deserialize_with|default)\s*=\s*"(' + IDENT + r'(?:::' + IDENT + r')*)"', m.group(0)):
                found.append((m.start(), [q.group(1).split("::")]))
        for start, paths in found:
            here = modpath + inline_at(marks, start)
            for segs in paths:
                target = resolve(crate, here, segs)
                if target and target != path:
                    result.setdefault(path, {}).setdefault(target, set()).add("::".join(segs))
    return result


def resolve(crate, here, segs):
    if not segs:
        return None
    segs = list(segs)
    if segs[0] == "crate":
        base, segs = (), segs[1:]
    elif segs[0] in ("super", "self"):
        base = here
        while segs and segs[0] in ("super", "self"):
            if segs[0] == "super":
                if not base:
                    return None
                base = base[:-1]
            segs = segs[1:]
    elif segs[0] in crate.children.get(here, ()):
        base = here
    else:
        return None
    mod = base
    for s in segs:
        if s in crate.children.get(mod, ()):
            mod = mod + (s,)
        else:
            break
    return crate.file_of(mod)


def tarjan(graph):
    index, low, on, stack, out = {}, {}, set(), [], []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv):
    show_edges = "--edges" in argv
    args = [a for a in argv if not a.startswith("--")]
    src = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")
    src = os.path.normpath(src)
    graph = {}
    for root in ("lib.rs", "main.rs"):
        if not os.path.exists(os.path.join(src, root)):
            continue
        crate = Crate(src)
        crate.load(os.path.join(src, root))
        for f, targets in edges(crate).items():
            for t, why in targets.items():
                graph.setdefault(f, {}).setdefault(t, set()).update(why)
    rel = lambda p: os.path.relpath(p, os.path.dirname(src))
    if show_edges:
        for f in sorted(graph):
            for t in sorted(graph[f]):
                print(f"{rel(f)} -> {rel(t)}: {', '.join(sorted(graph[f][t]))}")
    circles = [c for c in tarjan(graph) if len(c) > 1]
    for comp in sorted(circles):
        print(f"circle of {len(comp)} files:")
        for f in comp:
            back = sorted(t for t in graph.get(f, ()) if t in comp)
            print(f"  {rel(f)} -> " + ", ".join(rel(t) for t in back))
        pairs = sorted({(a, b) for a in comp for b in graph.get(a, ()) if b in comp and a < b and a in graph.get(b, ())})
        for a, b in pairs:
            why_ab = ", ".join(sorted(graph[a][b]))
            why_ba = ", ".join(sorted(graph[b][a]))
            print(f"  pair: {rel(a)} ({why_ab}) <-> {rel(b)} ({why_ba})")
    if circles:
        print(f"{len(circles)} circle(s) between files")
        return 1
    print("no circles between files")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
