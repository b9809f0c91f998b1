// The monitoring files under deploy/: the Grafana dashboard and the Prometheus
// alert rules name only metrics the shop's /metrics exposes, and the rules pass
// promtool's check and their unit tests (when Debian's `prometheus` package is installed).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../app.ts";
import { type TestShop, createTestShop } from "../../test/app.ts";

const dashboardFile = path.join(projectRoot, "deploy/grafana/tradecounter.json");
const rulesDir = path.join(projectRoot, "deploy/prometheus");
const hasPromtool = spawnSync("promtool", ["--version"]).status === 0;

interface Dashboard {
  panels: { title: string; targets: { expr: string }[] }[];
}

/** The metric names an expression reads (the shop's own and the process metrics). */
const namesIn = (expr: string) => [...expr.matchAll(/\b(?:tradecounter|process|nodejs)_[a-z0-9_]+/g)].map((m) => m[0]);

let shop: TestShop;
let exposed: Set<string>;
beforeAll(async () => {
  shop = await createTestShop();
  const text = (await shop.app.inject({ method: "GET", url: "/metrics", remoteAddress: "127.0.0.1" })).body;
  exposed = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    exposed.add(name!);
    if (type === "histogram") for (const suffix of ["_bucket", "_count", "_sum"]) exposed.add(name + suffix);
  }
});
afterAll(async () => {
  await shop.close();
});

describe("the Grafana dashboard", () => {
  const dashboard = JSON.parse(readFileSync(dashboardFile, "utf8")) as Dashboard;

  it("has panels for the 5xx rate, p99, failed jobs, webhook refusals, outbox age and backup age", () => {
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr)).join("\n");
    expect(exprs).toMatch(/status=~"5\.\."/);
    expect(exprs).toContain("histogram_quantile(0.99");
    expect(exprs).toContain('tradecounter_job_runs_total{outcome="failed"}');
    expect(exprs).toContain("tradecounter_payment_webhooks_total");
    expect(exprs).toContain("tradecounter_mail_outbox_oldest_age_seconds");
    expect(exprs).toContain("tradecounter_backup_last_success_timestamp_seconds");
  });

  it("names only metrics that /metrics exposes", () => {
    for (const panel of dashboard.panels) {
      expect(panel.targets.length, panel.title).toBeGreaterThan(0);
      for (const { expr } of panel.targets) {
        expect(namesIn(expr).length, `${panel.title}: ${expr}`).toBeGreaterThan(0);
        for (const name of namesIn(expr)) expect(exposed.has(name), `${panel.title} reads ${name}`).toBe(true);
      }
    }
  });
});

describe("the Prometheus alert rules", () => {
  const rules = readFileSync(path.join(rulesDir, "alerts.yml"), "utf8");

  it("name only metrics that /metrics exposes", () => {
    const names = namesIn(rules.replace(/^\s*#.*$/gm, ""));
    expect(names).toContain("tradecounter_backup_last_success_timestamp_seconds");
    for (const name of names) expect(exposed.has(name), name).toBe(true);
  });

  it.skipIf(!hasPromtool)("pass promtool's check and their unit tests", () => {
    const check = spawnSync("promtool", ["check", "rules", "alerts.yml"], { cwd: rulesDir, encoding: "utf8" });
    expect(check.status, check.stdout + check.stderr).toBe(0);
    const test = spawnSync("promtool", ["test", "rules", "alerts.test.yml"], { cwd: rulesDir, encoding: "utf8" });
    expect(test.status, test.stdout + test.stderr).toBe(0);
    expect(test.stdout).toContain("SUCCESS");
  });
});
