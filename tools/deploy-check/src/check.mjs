// `npm run check -w @storage/deploy-check`: the same judgement as the test, printed per overlay, exit 1 on any finding.
// DEPLOY_DIR=<another deploy/> judges another copy (e.g. an older commit's).
import { KUBERNETES_VERSIONS, kubeScore, overlays, platformRuleViolations, render, tools, validateSchemas } from './deploy.mjs';

const t = tools();
if (!t) {
  console.error('no python3: the deploy tools cannot be installed (tools/deploy-check/scripts/install-tools.sh)');
  process.exit(1);
}
let failed = false;
for (const overlay of overlays()) {
  const rendered = render(t, overlay);
  console.log(`\n== ${overlay}: ${rendered.objects.length} objects`);
  for (const version of KUBERNETES_VERSIONS) {
    const result = validateSchemas(t, rendered.file, version);
    console.log(`schemas ${version}: ${result.ok ? 'valid' : 'INVALID'}`);
    if (!result.ok) console.log(result.output);
    failed ||= !result.ok;
  }
  if (t.kubeScore) {
    const result = kubeScore(t, rendered.file);
    console.log(`kube-score: ${result.critical.length} critical, ${result.warning.length} warning`);
    for (const line of [...result.critical, ...result.warning]) console.log(`  ${line}`);
    failed ||= result.critical.length + result.warning.length > 0;
  } else {
    console.log('kube-score: not available (no Go to build it)');
  }
  const problems = platformRuleViolations(rendered.objects);
  console.log(`platform rules: ${problems.length} problem(s)`);
  for (const problem of problems) console.log(`  ${problem}`);
  failed ||= problems.length > 0;
}
process.exit(failed ? 1 : 0);
