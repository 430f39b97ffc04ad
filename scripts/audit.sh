#!/usr/bin/env sh
# Audits the production dependencies (what `npm install --omit=dev` ships) against the npm
# advisory database, and prints the result. Needs the npm registry's audit endpoint.
#
#   scripts/audit.sh                   # fail on moderate or worse
#   AUDIT_LEVEL=high scripts/audit.sh  # fail on high or critical only
#
# Exit status: 0 no vulnerability at or above AUDIT_LEVEL, 1 vulnerabilities found,
# 2 the audit could not run (registry unreachable or refusing the audit request), so CI can
# tell "vulnerable" from "not audited".
set -eu
cd "$(dirname "$0")/.."
level="${AUDIT_LEVEL:-moderate}"
echo "npm audit --omit=dev (fail at: ${level}; node $(node --version), npm $(npm --version), registry $(npm config get registry))"
report="$(npm audit --omit=dev --json 2>/dev/null || true)"
printf '%s' "${report}" | AUDIT_LEVEL="${level}" node -e '
  const levels = ["info", "low", "moderate", "high", "critical"];
  const failAt = levels.indexOf(process.env.AUDIT_LEVEL);
  if (failAt < 0) { console.error(`AUDIT_LEVEL must be one of ${levels.join(", ")}`); process.exit(2); }
  let text = "";
  process.stdin.on("data", (c) => (text += c));
  process.stdin.on("end", () => {
    let report;
    try { report = JSON.parse(text); } catch { console.error("audit could not run: npm printed no report"); process.exit(2); }
    const counts = report.metadata && report.metadata.vulnerabilities;
    if (!counts) {
      const why = (report.error && (report.error.summary || report.error.detail)) || report.message || JSON.stringify(report).slice(0, 300);
      console.error(`audit could not run: ${why}`);
      process.exit(2);
    }
    const deps = report.metadata.dependencies || {};
    console.log(`production dependencies audited: ${deps.prod ?? "?"} (of ${deps.total ?? "?"} installed)`);
    console.log(`vulnerabilities: ${levels.map((l) => `${counts[l] ?? 0} ${l}`).join(", ")}`);
    let failing = 0;
    for (const [name, v] of Object.entries(report.vulnerabilities || {})) {
      const titles = (v.via || []).filter((x) => typeof x === "object").map((x) => `${x.title} (${x.url})`);
      const via = titles.length > 0 ? titles.join("; ") : `through ${(v.via || []).join(", ")}`;
      const fix = v.fixAvailable === false ? "no fix available" : v.fixAvailable === true ? "fix: npm audit fix" : `fix: ${v.fixAvailable.name}@${v.fixAvailable.version}`;
      console.log(`  ${v.severity.padEnd(8)} ${name} ${v.range}: ${via}; ${fix}`);
      if (levels.indexOf(v.severity) >= failAt) failing++;
    }
    if (failing > 0) { console.error(`audit failed: ${failing} package(s) at or above ${process.env.AUDIT_LEVEL}`); process.exit(1); }
    console.log(`audit passed: nothing at or above ${process.env.AUDIT_LEVEL}`);
  });
'
