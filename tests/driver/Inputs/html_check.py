#!/usr/bin/env python3
"""html_check.py REPORT_DIR REPORT_JSON: checks krefcheck's HTML report
against the JSON report of the same run (standard library only).

Prints one line per page checked; exits 1 naming the first difference:
- index.html, index-checker.html, index-function.html: the same findings as
  the JSON report (file, line, checker, function, message, number of notes),
  sorted by location / checker / function, with per-checker counts equal to
  the JSON summary's and the summary line;
- report-N.html: the message, the checker's doc link, the function, and
  every path note of the JSON finding, numbered 1..n in order, each in a box
  placed right under the source row of its line.
"""
import html.parser, json, os, sys


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.stack = []          # open elements: (tag, attrs)
        self.rows = {}           # table id -> list of rows (list of cell texts)
        self.links = {}          # element id -> href
        self.text = {}           # element id -> text
        self.notes = []          # (note number, text, line of the row before)
        self.last_line = None    # line number of the last source row seen
        self.cur_cells = None
        self.table = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("br", "meta", "link"):
            return
        self.stack.append((tag, a))
        if tag == "table" and "id" in a:
            self.table = a["id"]
            self.rows[self.table] = []
        if tag == "tr" and self.table:
            self.cur_cells = []
        if tag in ("td", "th") and self.cur_cells is not None:
            self.cur_cells.append("")
        if tag == "tr" and a.get("id", "").startswith("L"):
            self.last_line = int(a["id"][1:])
        if "id" in a:
            self.text[a["id"]] = ""
            if "href" in a:
                self.links[a["id"]] = a["href"]

    def handle_endtag(self, tag):
        while self.stack:
            t, a = self.stack.pop()
            if t == "div" and a.get("class", "").startswith("note") and a.get("id", "").startswith("note-"):
                n = int(a["id"][5:])
                t = self.text[a["id"]]  # "<span>N</span>message"
                self.notes.append((n, t[len(str(n)):] if t.startswith(str(n)) else t,
                                   self.last_line))
            if t == "tr" and self.cur_cells is not None and self.table:
                self.rows[self.table].append(self.cur_cells)
                self.cur_cells = None
            if t == "table":
                self.table = None
            if t == tag:
                break

    def handle_data(self, data):
        for t, a in self.stack:
            if "id" in a:
                self.text[a["id"]] += data
        if self.cur_cells:
            self.cur_cells[-1] += data


def parse(path):
    p = Page()
    with open(path, encoding="utf-8") as f:
        p.feed(f.read())
    p.close()
    return p


def fail(msg):
    print("html_check.py: " + msg)
    sys.exit(1)


def main():
    d, js = sys.argv[1], json.load(open(sys.argv[2]))
    findings = js["findings"]
    # Report numbers follow the JSON order (by location).
    order = {"index.html": lambda f: 0, "index-checker.html": lambda f: f["checker"],
             "index-function.html": lambda f: f["function"]}
    for name, key in order.items():
        p = parse(os.path.join(d, name))
        rows = p.rows.get("findings", [])[1:]
        want = sorted(range(len(findings)), key=lambda i: (key(findings[i]), i))
        if len(rows) != len(findings):
            fail(f"{name}: {len(rows)} findings, the JSON report has {len(findings)}")
        for row, i in zip(rows, want):
            f = findings[i]
            exp = [str(i + 1), f["file"], str(f["line"]),
                   f["checker"].replace("refcount.", ""), f["function"], f["message"],
                   str(len(f["notes"]))]
            if [c.strip() for c in row] != exp:
                fail(f"{name}: row {row} != {exp}")
        counts = {r[0]: int(r[1]) for r in p.rows["checkers"][1:]}
        if counts != js["summary"]["by_checker"]:
            fail(f"{name}: counts {counts} != {js['summary']['by_checker']}")
        print(f"{name}: {len(rows)} findings; {p.text['summary']}")
    for i, f in enumerate(findings, 1):
        name = f"report-{i}.html"
        p = parse(os.path.join(d, name))
        if p.text["message"] != f["message"]:
            fail(f"{name}: message {p.text['message']!r} != {f['message']!r}")
        short = f["checker"].replace("refcount.", "")
        if not p.links["checker"].endswith(f"docs/checkers/{short}.md"):
            fail(f"{name}: checker link {p.links['checker']}")
        if p.text["function"] != f["function"]:
            fail(f"{name}: function {p.text['function']!r} != {f['function']!r}")
        got = [(n, t) for n, t, _ in p.notes]
        exp = [(k, n["message"]) for k, n in enumerate(f["notes"], 1)]
        if sorted(got) != exp:
            fail(f"{name}: notes {got} != {exp}")
        for (n, t, line), note in zip(sorted(p.notes), f["notes"]):
            if line != note["line"]:
                fail(f"{name}: note {n} is under line {line}, not {note['line']}")
        print(f"{name}: {f['checker']} in {f['function']}: {len(p.notes)} notes at their lines")


main()
