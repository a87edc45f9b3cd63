#!/usr/bin/env bash
# The alerting rules and the dashboard (ops/): promtool's check and unit tests
# of ops/prometheus/alerts.yml (alerts_test.yml); the Grafana dashboard's JSON
# and the PromQL of its panels; and that every metric and label the rules,
# their tests and the dashboard name is one Holdfast exports
# (ops/prometheus/metrics.txt), as is every metric the Rust code counts.
# Installs promtool (Debian's prometheus package) when it is missing; no
# Prometheus server is started. A few seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v promtool >/dev/null; then
  # promtool comes with Debian's prometheus package, whose postinst starts
  # the server where services may start. A policy-rc.d that refuses (Docker
  # images have one) keeps it stopped; a server the install started anyway
  # is stopped by its pid.
  before=$(pgrep -x prometheus || true)
  guard=
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=/usr/sbin/policy-rc.d
    trap 'rm -f "$guard"' EXIT
    printf '#!/bin/sh\nexit 101\n' >"$guard"
    chmod +x "$guard"
  fi
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  if [ -n "$guard" ]; then rm -f "$guard"; trap - EXIT; fi
  for pid in $(pgrep -x prometheus || true); do
    if ! grep -qx "$pid" <<<"$before"; then
      echo "stopping the prometheus server (pid $pid) the package started" >&2
      kill "$pid"
    fi
  done
fi
python3 -c 'import yaml' 2>/dev/null || pip install -q pyyaml

promtool check rules ops/prometheus/alerts.yml
promtool test rules ops/prometheus/alerts_test.yml
python3 -m json.tool ops/grafana/holdfast.json >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 - "$work/dashboard-rules.yml" <<'PY'
"""Every metric and label named in the rules, their tests and the dashboard
is in metrics.txt, and so is every metric the Rust code counts. Writes the
dashboard's queries as recording rules for promtool to parse."""
import json, pathlib, re, sys
import yaml

ALWAYS = {"instance", "job"}  # added by the scrape
known = {}  # sample name -> its labels
listed = {}  # metric name -> its labels
for line in open("ops/prometheus/metrics.txt"):
    line = line.split("#")[0].split()
    if not line:
        continue
    name, kind, labels = line
    labels = set() if labels == "-" else set(labels.split(","))
    if labels & {"instance", "job"}:
        # The scrape's own labels: Holdfast's would be renamed exported_job,
        # exported_instance, and `by (job)` would group nothing.
        sys.exit(f"metrics.txt: {name}: instance and job are the scrape's labels; name it otherwise")
    listed[name] = labels
    if kind in ("counter", "gauge"):
        known[name] = labels
    elif kind == "histogram":
        known.update({name + "_bucket": labels | {"le"}, name + "_sum": labels, name + "_count": labels})
    elif kind == "summary":
        known.update({name: labels | {"quantile"}, name + "_sum": labels, name + "_count": labels})
    else:
        sys.exit(f"metrics.txt: {name}: unknown type {kind}")

errors = []
STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')
SELECTOR = re.compile(r"\b(holdfast_[A-Za-z0-9_:]*)\s*(\{[^}]*\})?")
MATCHER = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*(?:=~|!~|!=|=)")
GROUPING = re.compile(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)")

def check(where, expr, labels_used=()):
    """The metrics and labels of one PromQL expression (or one series of a
    test); labels_used: labels its legend or annotations name."""
    bare = STRING.sub('""', expr)
    allowed = set(ALWAYS)
    for name, matchers in SELECTOR.findall(bare):
        if name not in known:
            errors.append(f"{where}: {name} is not in metrics.txt")
            continue
        allowed |= known[name]
        for label in MATCHER.findall(matchers or ""):
            if label not in known[name] | ALWAYS:
                errors.append(f"{where}: {name} has no label {label}")
    for group in GROUPING.findall(bare):
        for label in filter(None, (l.strip() for l in group.split(","))):
            if label not in allowed:
                errors.append(f"{where}: no metric here has the label {label}")
    for label in labels_used:
        if label not in allowed:
            errors.append(f"{where}: names the label {label}, which its query does not have")

rules = yaml.safe_load(open("ops/prometheus/alerts.yml"))
for group in rules["groups"]:
    for rule in group["rules"]:
        text = " ".join(rule.get("annotations", {}).values())
        check(f"alerts.yml {rule['alert']}", rule["expr"], re.findall(r"\$labels\.(\w+)", text))

tests = yaml.safe_load(open("ops/prometheus/alerts_test.yml"))
for i, test in enumerate(tests["tests"]):
    for series in test.get("input_series", []):
        check(f"alerts_test.yml test {i + 1}", series["series"])

def panels(items):
    for p in items:
        yield p
        yield from panels(p.get("panels", []))

dashboard = json.load(open("ops/grafana/holdfast.json"))
queries = []
ids = [p["id"] for p in panels(dashboard["panels"])]
if len(ids) != len(set(ids)):
    errors.append("holdfast.json: panel ids repeat")
for p in panels(dashboard["panels"]):
    for t in p.get("targets", []):
        where = f"holdfast.json panel {p['id']} ({p['title']}) {t['refId']}"
        check(where, t["expr"], re.findall(r"\{\{\s*(\w+)\s*\}\}", t.get("legendFormat", "")))
        queries.append((f"panel_{p['id']}_{t['refId']}", t["expr"]))
for v in dashboard["templating"]["list"]:
    if v["type"] == "query":
        q = v["query"]["query"] if isinstance(v["query"], dict) else v["query"]
        check(f"holdfast.json variable {v['name']}", q)

# The Rust code's metrics are all listed, with the labels it gives them; a
# listed one the code does not name yet is only noted.
source = ""
for path in sorted(p for d in ("app/src", "src", "crates") for p in pathlib.Path(d).rglob("*.rs")):
    text = path.read_text()
    source += text
    for call in re.finditer(r'(?:counter|gauge|histogram)!\(\s*"(holdfast_\w+)"', text):
        name, depth, end = call.group(1), 1, call.end()
        while depth and end < len(text):  # to the macro's closing parenthesis
            depth += {"(": 1, ")": -1}.get(text[end], 0)
            end += 1
        line_no = text.count("\n", 0, call.start()) + 1
        if name not in listed:
            errors.append(f"{path}:{line_no}: {name} is not in metrics.txt")
            continue
        for label in re.findall(r'"(\w+)"\s*=>', text[call.end():end]):
            if label in ALWAYS:
                errors.append(f"{path}:{line_no}: {name}'s label {label} is the scrape's own: Prometheus"
                              f" renames it exported_{label}; metrics.txt says which label to use")
            elif label not in listed[name]:
                errors.append(f"{path}:{line_no}: {name} has the label {label}, which metrics.txt does not list")
missing = [n for n in listed if f'"{n}"' not in source]
if missing:
    print("note: listed in metrics.txt, not yet in the Rust code: " + ", ".join(missing))

if errors:
    sys.exit("\n".join(["!! metrics and labels:"] + errors))

# Grafana's variables as Prometheus would see them, for promtool to parse.
def concrete(expr):
    expr = re.sub(r"\$\{?__(rate_interval|interval|range)\}?", "5m", expr)
    return re.sub(r"\$\{?\w+(:\w+)?\}?", ".*", expr)
with open(sys.argv[1], "w") as f:
    yaml.safe_dump({"groups": [{"name": "dashboard", "rules": [
        {"record": f"holdfast_dashboard_{name}", "expr": concrete(expr)} for name, expr in queries]}]}, f)
print(f"metrics and labels: {len(known)} series names, {len(queries)} dashboard queries, all in metrics.txt")
PY
if ! out=$(promtool check rules "$work/dashboard-rules.yml" 2>&1); then
  echo "!! the dashboard's PromQL:" >&2
  echo "$out" >&2
  exit 1
fi
echo "alerts, their tests and the dashboard: ok"
