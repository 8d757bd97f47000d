import { parse } from 'yaml';
import { headingAnchors } from './markdown-anchors';
import { promtool, readRepositoryFile, ruleGroups, RULES } from './monitoring-files';
import { metricNamesIn, metricsReadBy } from './service-metrics';

interface RuleTests {
  rule_files: string[];
  tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
}

const RULE_TESTS = 'deploy/prometheus/rules.test.yml';
const rules = ruleGroups().groups.flatMap((group) => group.rules);

describe('the Prometheus alert rules (deploy/prometheus)', () => {
  it('pass `promtool check rules`', () => {
    const check = promtool('check', 'rules', RULES);
    expect(check.output).toContain(`SUCCESS: ${rules.length} rules found`);
    expect(check.status).toBe(0);
  });

  it('pass their unit tests, `promtool test rules`', () => {
    const test = promtool('test', 'rules', RULE_TESTS);
    expect(test.output).toContain('SUCCESS');
    expect(test.status).toBe(0);
  });

  it('test every alert both firing and quiet', () => {
    const tests = (parse(readRepositoryFile(RULE_TESTS)) as RuleTests).tests.flatMap((test) => test.alert_rule_test);
    const coverage = (alert: string) => {
      const cases = tests.filter(({ alertname }) => alertname === alert);
      return { alert, firing: cases.some(({ exp_alerts }) => exp_alerts.length > 0), quiet: cases.some(({ exp_alerts }) => exp_alerts.length === 0) };
    };
    expect(rules.map(({ alert }) => coverage(alert))).toEqual(rules.map(({ alert }) => ({ alert, firing: true, quiet: true })));
  });

  it('read only metrics the service exports', () => {
    const read = metricsReadBy(rules.map(({ alert, expr }) => ({ name: alert, expr })));
    expect(read.filter(({ reads, unknown }) => reads.length === 0 || unknown.length > 0)).toEqual([]);
  });

  it('each link a runbook: its own section of docs/operations.md, which exists', () => {
    const anchors = headingAnchors(readRepositoryFile('docs/operations.md'));
    expect(rules.map(({ alert, annotations }) => [alert, annotations.runbook_url])).toEqual(
      rules.map(({ alert }) => [alert, `docs/operations.md#${alert.toLowerCase()}`]),
    );
    expect(rules.filter(({ annotations }) => !anchors.has(annotations.runbook_url.split('#')[1])).map(({ alert }) => alert)).toEqual([]);
  });

  it('each have a severity, a summary and a description', () => {
    for (const { alert, labels, annotations } of rules) {
      expect([alert, ['page', 'ticket'].includes(labels.severity), annotations.summary?.length > 0, annotations.description?.length > 0]).toEqual([
        alert,
        true,
        true,
        true,
      ]);
    }
  });
});

describe('metricNamesIn', () => {
  it('names the metrics of an expression, not its functions, keywords, labels, ranges or variables', () => {
    expect(
      metricNamesIn(
        'sum by (instance) (rate(lvs_a_total{status=~"5..", route="x"}[$__rate_interval])) / on () group_left sum(lvs_b_count offset 5m) > 1e3 and absent(lvs_c)',
      ),
    ).toEqual(['lvs_a_total', 'lvs_b_count', 'lvs_c']);
  });
});

describe('headingAnchors', () => {
  it("makes GitHub's anchors, numbering repeats and skipping code blocks", () => {
    const markdown = [
      '# Operations',
      '## The `npm start` launcher!',
      '### Runbook',
      '```',
      '# not a heading',
      '```',
      '### Runbook',
      '## Äpfel & Birnen',
    ].join('\n');
    expect([...headingAnchors(markdown)]).toEqual(['operations', 'the-npm-start-launcher', 'runbook', 'runbook-1', 'äpfel--birnen']);
  });
});
