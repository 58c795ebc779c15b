// JUnit files as the real tools write them: openshift-tests' junit_e2e_*.xml (Go encoding/xml,
// 4-space indent, no XML header) and ci-operator's junit_operator.xml ("step graph" suite).
import { xmlEscape, xmlEscapeName, xmlFloat } from './format';
import type { OperatorTest, SimRun } from './runs';

/** openshift-tests keeps the output from the last `fail [` line on as the failure body */
function failureBody(text: string): string {
  const at = text.lastIndexOf('\nfail [');
  return at >= 0 ? text.slice(at + 1) : text;
}

export function e2eJunit(run: SimRun, wrapped: boolean): string {
  const ind = wrapped ? '    ' : '';
  const cases: string[] = [];
  let tests = 0;
  let failures = 0;
  let skipped = 0;
  // first attempts in execution order, then the retries (as cmd_runsuite appends them)
  const attempts = [0, 1];
  for (const attempt of attempts) {
    for (const t of run.e2e) {
      const e = t.execs[attempt];
      if (!e) continue;
      tests++;
      const open = `${ind}    <testcase name="${xmlEscapeName(t.name)}" time="${xmlFloat(e.end - e.start)}">`;
      if (e.result === 'passed') {
        cases.push(`${open}</testcase>`);
      } else if (e.result === 'skipped') {
        skipped++;
        cases.push(`${open}\n${ind}        <skipped message="${xmlEscapeName(e.text ?? '')}"></skipped>\n${ind}    </testcase>`);
      } else {
        failures++;
        const text = e.text ?? '';
        cases.push(`${open}\n${ind}        <failure message="">${xmlEscape(failureBody(text))}</failure>\n${ind}        <system-out>${xmlEscape(text)}</system-out>\n${ind}    </testcase>`);
      }
    }
  }
  const time = Math.round(run.e2eEnd - run.e2eStart);
  const suite = [
    `${ind}<testsuite name="openshift-tests" tests="${tests}" skipped="${skipped}" failures="${failures}" time="${time}">`,
    `${ind}    <property name="TestVersion" value="${xmlEscape(run.testVersion)}"></property>`,
    ...cases,
    `${ind}</testsuite>`,
  ].join('\n');
  return wrapped ? `<testsuites>\n${suite}\n</testsuites>\n` : `${suite}\n`;
}

function operatorCase(t: OperatorTest): string {
  const lines = [`    <testcase name="${xmlEscape(t.name)}" time="${xmlFloat(t.durationSec)}">`, '      <properties></properties>'];
  if (t.outcome === 'failed') lines.push(`      <failure message="">${xmlEscape(t.message ?? '')}</failure>`);
  if (t.systemOut) lines.push(`      <system-out>${xmlEscape(t.systemOut)}</system-out>`);
  lines.push('    </testcase>');
  return lines.join('\n');
}

export function operatorJunit(run: SimRun): string {
  // ci-operator sorts its test cases by name
  const tests = [...run.operator].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const failures = tests.filter((t) => t.outcome === 'failed').length;
  return [
    '<testsuites>',
    `  <testsuite name="step graph" tests="${tests.length}" skipped="0" failures="${failures}" time="${Math.round(run.finished - run.started)}">`,
    '    <properties></properties>',
    ...tests.map(operatorCase),
    '  </testsuite>',
    '</testsuites>',
  ].join('\n');
}
