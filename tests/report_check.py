#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks an iowl HTML report: well-formed, the plots expected (and no others asked absent), each
plot with axes, labels and something drawn, and the figures of the JSON it was drawn from.

usage: report_check.py REPORT.html [--expect KIND ...] [--absent KIND ...] [--json RUN.json ...]
       [--series NAME ...] [--no-series NAME ...]
Exit 0 when every check holds, 1 with the reasons otherwise."""
import argparse
import json
import math
import re
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
errors = []


def bad(msg):
    errors.append(msg)


def fmt_num(v):
    """plot_fmt_num() of src/report/svg.c."""
    sfx = ["", "k", "M", "G", "T", "P"]
    u = 0
    a = abs(v)
    while a >= 1000 and u < 5:
        a /= 1000
        v /= 1000
        u += 1
    if a == 0:
        return "0"
    if a >= 100 or a == math.floor(a):
        return "%.0f%s" % (v, sfx[u])
    return "%s%s" % (("%.3g" % v), sfx[u])


VOID = {"meta", "br", "hr", "img", "link", "input"}
# A tag, its attributes (quoted values may hold '>') and a closing '/'; comments, CDATA and
# processing instructions are taken out before (the page parsed as XML has no other '<').
TAG = re.compile(r"""<(/?)([A-Za-z][^\s/>]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""")
OTHER = re.compile(r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>|<![A-Za-z][^>]*>", re.S)


def strict(raw):
    """As html.parser sees the tags: every element closed in order, void ones never closed (a
    regular expression over the tags: html.parser took seconds of CPU a page of 15000 tags)."""
    stack = []
    for m in TAG.finditer(OTHER.sub("", raw)):
        tag = m.group(2).lower()
        if m.group(1):
            if not stack or stack[-1] != tag:
                bad("html.parser: </%s> closes <%s>" % (tag, stack[-1] if stack else "nothing"))
            else:
                stack.pop()
        elif tag not in VOID and not m.group(3).endswith("/"):
            stack.append(tag)
    return stack


def texts(el):
    return "".join(el.itertext()).strip()


def load_docs(path):
    docs = []
    dec = json.JSONDecoder()
    s = open(path, encoding="utf-8", errors="replace").read()
    i = 0
    while i < len(s):
        if s[i].isspace():
            i += 1
            continue
        if s[i] != "{":
            j = s.find("\n", i)
            i = len(s) if j < 0 else j + 1
            continue
        d, i = dec.raw_decode(s, i)
        docs.append(d)
    return docs


def check_plot(svg):
    kind = svg.get("data-plot")
    for a in ("width", "height"):
        if not svg.get(a) or float(svg.get(a)) <= 0:
            bad("%s: %s is %r" % (kind, a, svg.get(a)))
    cls = {}
    for t in svg.iter(SVG + "text"):
        cls.setdefault(t.get("class", ""), []).append(texts(t))
    for c in ("label-x", "label-y", "title"):
        if not cls.get(c) or not cls[c][0]:
            bad("%s: no %s" % (kind, c))
    if len(cls.get("tick-x", [])) < 2 or len(cls.get("tick-y", [])) < 2:
        bad("%s: fewer than two ticks on an axis (x %s, y %s)" % (kind, cls.get("tick-x"), cls.get("tick-y")))
    drawn = 0
    for el in svg.iter():
        c = el.get("class", "")
        if c == "series" and len(el.get("d", "")) > 1:
            drawn += 1
        if c in ("points", "bars", "heatmap") and len(list(el)) > 0:
            drawn += 1
    if not drawn:
        bad("%s: nothing drawn" % kind)
    return kind


def series_names(root):
    return [el.get("data-name") for el in root.iter() if el.get("data-name") is not None] + \
        [texts(t) for t in root.iter(SVG + "text") if t.get("class") == "legend-item"]


def check_run(root, doc):
    rows = []
    for tr in root.iter("tr"):
        rows.append([texts(td) for td in tr])
    for job in doc.get("jobs", []):
        for d in ("read", "write", "trim"):
            x = job.get(d, {})
            if not x.get("total_ios"):
                continue
            want = fmt_num(x["iops"])
            if not any(len(r) > 3 and r[1] == job["jobname"] and r[2] == d and r[3] == want for r in rows):
                bad("summary: no row %s %s IOPS %s (rows %s)" % (job["jobname"], d, want, rows))
        ivl = job.get("iowl", {}).get("intervals", {}).get("points")
        names = [el.get("data-name") for el in root.iter() if el.get("class") == "series"]
        for d in ("read", "write", "trim"):
            for key, label in (("clat_p50_ns", "p50"), ("clat_p999_ns", "p99.9")):
                if any((p.get(d) or {}).get(key, 0) > 0 for p in ivl or []):
                    if "%s %s" % (d, label) not in names:
                        bad("latency over time: no series '%s %s' though the JSON has it" % (d, label))
        if ivl:
            n = [el.get("data-n") for el in root.iter() if el.get("class") == "series" and
                 el.get("data-name", "").endswith(" IOPS")]
            if str(len(ivl)) not in n:
                bad("throughput: no series of %d intervals (%s)" % (len(ivl), n))


def check_other(root, doc):
    """A sweep's fit, a curve's knee, an analysis' heat map: as the JSON says."""
    alltext = texts(root)
    usl = doc.get("usl")
    if usl and "error" not in usl:
        want = "sigma (contention) %s" % ("%.4g" % usl["sigma"])
        if want not in alltext:
            bad("sweep: %r not in the page" % want)
    if "curve" in doc:
        k = doc.get("knee_pct", -1)
        want = "knee: %.0f%% of the maximum" % k if k > 0 else "no knee"
        if want not in alltext:
            bad("curve: %r not in the page" % want)
    maps = [el for el in root.iter() if el.get("class") == "heatmap"]
    for a, el in zip(doc.get("analysis", []), maps):
        m = max(max(r) for r in a["heatmap"]["counts"])
        if float(el.get("data-max")) != m:
            bad("heat map: data-max %s, the JSON's largest cell %d" % (el.get("data-max"), m))
    if doc.get("analysis") and len(maps) != len(doc["analysis"]):
        bad("%d heat maps for %d jobs" % (len(maps), len(doc["analysis"])))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("--expect", action="append", default=[])
    ap.add_argument("--absent", action="append", default=[])
    ap.add_argument("--json", action="append", default=[])
    ap.add_argument("--series", action="append", default=[])
    ap.add_argument("--no-series", action="append", default=[])
    ap.add_argument("--text", action="append", default=[])
    a = ap.parse_args()
    raw = open(a.html, encoding="utf-8").read()
    try:
        root = ET.fromstring(raw.replace("<!DOCTYPE html>", "", 1))
    except ET.ParseError as e:
        print("FAIL: %s is not well-formed: %s" % (a.html, e))
        return 1
    stack = strict(raw)
    if stack:
        bad("html.parser: unclosed %s" % stack)
    if "<script" in raw or "http://" in raw.replace("http://www.w3.org/2000/svg", ""):
        bad("a script or a network address in the page")
    kinds = [check_plot(s) for s in root.iter(SVG + "svg")]
    for k in a.expect:
        if k not in kinds:
            bad("no %s plot (plots: %s)" % (k, kinds))
    for k in a.absent:
        if k in kinds:
            bad("a %s plot that should not be there" % k)
    names = series_names(root)
    for s in a.series:
        if s not in names:
            bad("no series %r (%s)" % (s, names))
    for s in a.no_series:
        if s in names:
            bad("series %r drawn" % s)
    alltext = texts(root)
    for t in a.text:
        if t not in alltext:
            bad("text %r not in the page" % t)
    for j in a.json:
        for d in load_docs(j):
            if "jobs" in d and "fio version" in d:
                check_run(root, d)
            else:
                check_other(root, d)
    for e in errors:
        print("FAIL: %s: %s" % (a.html, e))
    if not errors:
        print("ok: %s: %d plots: %s" % (a.html, len(kinds), " ".join(kinds)))
    return 1 if errors else 0


sys.exit(main())
