import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { promtool, readRepositoryFile, ruleGroups } from './monitoring-files';
import { metricNamesIn, metricsReadBy } from './service-metrics';

interface Panel {
  id: number;
  type: string;
  title: string;
  datasource?: { type: string; uid: string };
  gridPos: { h: number; w: number; x: number; y: number };
  targets?: { refId: string; expr: string; datasource: { type: string; uid: string } }[];
}
interface Dashboard {
  uid: string;
  title: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown }[] };
}

const dashboard = JSON.parse(readRepositoryFile('deploy/grafana/licence-verification.json')) as Dashboard;
const graphs = dashboard.panels.filter((panel) => panel.type !== 'row');
const expressions = graphs.flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));
const DATASOURCE = { type: 'prometheus', uid: '${datasource}' };

describe('the Grafana dashboard (deploy/grafana)', () => {
  it('has panels with unique ids inside the 24-column grid, each querying the chosen Prometheus', () => {
    expect(dashboard.uid).toBe('lvs-overview');
    expect(new Set(dashboard.panels.map((panel) => panel.id)).size).toBe(dashboard.panels.length);
    for (const panel of dashboard.panels) expect([panel.title, panel.gridPos.x + panel.gridPos.w <= 24]).toEqual([panel.title, true]);
    expect(dashboard.templating.list.map(({ name, type }) => [name, type])).toEqual([
      ['datasource', 'datasource'],
      ['namespace', 'query'],
    ]);
    for (const panel of graphs) {
      expect([panel.title, panel.datasource, (panel.targets ?? []).length > 0]).toEqual([panel.title, DATASOURCE, true]);
      for (const target of panel.targets ?? []) expect([panel.title, target.datasource]).toEqual([panel.title, DATASOURCE]);
    }
  });

  it('queries only metrics the service exports, each narrowed to the chosen namespace', () => {
    const read = metricsReadBy(expressions.map(({ panel, expr }) => ({ name: panel, expr })));
    expect(read.filter(({ reads, unknown }) => reads.length === 0 || unknown.length > 0)).toEqual([]);
    for (const { panel, expr } of expressions) {
      const unnarrowed = metricNamesIn(expr).filter((name) => !expr.includes(`${name}{namespace=~"$namespace"`));
      expect([panel, unnarrowed]).toEqual([panel, []]);
    }
  });

  it('shows every figure the alert rules read', () => {
    const shown = new Set(expressions.flatMap(({ expr }) => metricNamesIn(expr)));
    const base = (name: string) => name.replace(/_(bucket|sum|count)$/, '');
    const shownBases = new Set([...shown].map(base));
    const alerted = ruleGroups().groups.flatMap((group) => group.rules.flatMap(({ expr }) => metricNamesIn(expr)));
    expect([...new Set(alerted)].filter((name) => !shownBases.has(base(name)))).toEqual([]);
  });

  it('queries are PromQL that Prometheus parses, with the variables Grafana fills in', () => {
    const rules = expressions.map(({ expr }, index) => ({
      record: `lvs:dashboard_query:${index}`,
      expr: expr.replaceAll('$__rate_interval', '5m').replaceAll('$namespace', '.*'),
    }));
    const scratch = mkdtempSync(join(tmpdir(), 'lvs-dashboard-'));
    try {
      writeFileSync(join(scratch, 'queries.yml'), stringify({ groups: [{ name: 'dashboard', rules }] }));
      const check = promtool('check', 'rules', join(scratch, 'queries.yml'));
      expect([check.status, check.output]).toEqual([0, expect.stringContaining(`SUCCESS: ${rules.length} rules found`)]);
    } finally {
      rmSync(scratch, { recursive: true });
    }
  });
});
