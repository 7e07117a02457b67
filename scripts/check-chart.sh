#!/usr/bin/env bash
# Renders the Helm chart (deploy/helm/paygrid) with its default values and with each
# one-grouping values file, and validates every manifest against the Kubernetes JSON schemas
# with kubeconform, offline: the schemas come from the kubernetes-validate package (PyPI),
# strict (an unknown field is an error). helm and kubeconform are Go modules, built once
# into the tools cache (`--prepare` builds them and stops).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOLS="${PAYGRID_TOOLS_DIR:-${HOME:-/tmp}/.cache/paygrid-tools}"
BIN="$TOOLS/go-bin"
K8S_VERSION="${K8S_VERSION:-1.33.0}"
log() { printf '[check-chart] %s\n' "$*" >&2; }

mkdir -p "$BIN"
if [ ! -x "$BIN/helm" ]; then
  log "building helm (Go module helm.sh/helm/v3, a few minutes once)"
  (cd /tmp && GOBIN="$BIN" go install helm.sh/helm/v3/cmd/helm@v3.22.0)
fi
if [ ! -x "$BIN/kubeconform" ]; then
  log "building kubeconform (Go module github.com/yannh/kubeconform)"
  (cd /tmp && GOBIN="$BIN" go install github.com/yannh/kubeconform/cmd/kubeconform@v0.6.7)
fi
if [ ! -x "$TOOLS/deploy-venv/bin/python" ]; then python3 -m venv "$TOOLS/deploy-venv"; fi
"$TOOLS/deploy-venv/bin/python" -c 'import kubernetes_validate' 2>/dev/null \
  || "$TOOLS/deploy-venv/bin/pip" install -q 'kubernetes-validate==1.37.0'
PACKAGED="$("$TOOLS/deploy-venv/bin/python" -c 'import os, kubernetes_validate; print(os.path.join(os.path.dirname(kubernetes_validate.__file__), "kubernetes-json-schema"))')"
# The packaged schemas share one definitions file through an absolute reference that
# kubeconform cannot follow: scripts/lib/k8s-schemas.py writes self-contained copies once.
SCHEMAS="$TOOLS/k8s-schemas"
for dir in "v$K8S_VERSION-local" "v$K8S_VERSION-local-strict"; do
  if [ ! -f "$SCHEMAS/$dir/.complete" ]; then
    rm -rf "${SCHEMAS:?}/$dir"
    python3 scripts/lib/k8s-schemas.py "$PACKAGED/$dir" "$SCHEMAS/$dir"
    touch "$SCHEMAS/$dir/.complete"
  fi
done

# --prepare: the tools and schemas only (CI prepares them while npm installs).
[ "${1:-}" = "--prepare" ] && exit 0

out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$BIN/helm" lint deploy/helm/paygrid --strict >/dev/null
for values in "" values-payments-only.yaml values-invoicing-only.yaml; do
  name="${values%.yaml}"
  name="${name:-default}"
  args=()
  [ -n "$values" ] && args=(-f "deploy/helm/paygrid/$values")
  "$BIN/helm" template paygrid deploy/helm/paygrid "${args[@]}" >"$out/$name.yaml"
  log "$name: $(grep -c '^kind:' "$out/$name.yaml") manifests ($(grep '^kind:' "$out/$name.yaml" | sort | uniq -c | awk '{printf "%s %s, ", $1, $3}'))"
  "$BIN/kubeconform" -strict -summary -kubernetes-version "$K8S_VERSION" \
    -schema-location "$SCHEMAS/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
    "$out/$name.yaml"
done
# The grouping values leave their app out, and the gateway knows it (PAYGRID_SERVICES).
expect() { grep -q -- "$2" "$out/$1.yaml" || { log "$1: expected $2"; exit 1; }; }
refuse() { if grep -q -- "$2" "$out/$1.yaml"; then log "$1: unexpected $2"; exit 1; fi; }
expect default 'name: PAYGRID_SERVICES, value: "payments,invoicing,webhooks"'
expect values-payments-only 'name: PAYGRID_SERVICES, value: "payments,webhooks"'
refuse values-payments-only 'INVOICING_URL'
refuse values-payments-only 'name: paygrid-invoicing'
expect values-invoicing-only 'name: PAYGRID_SERVICES, value: "invoicing,webhooks"'
refuse values-invoicing-only 'PAYMENTS_URL'
refuse values-invoicing-only 'name: paygrid-payments'
# The validation itself can fail: a manifest with a field Kubernetes does not know is refused.
sed 's/^spec:$/spec:\n  notAField: true/' "$out/default.yaml" >"$out/broken.yaml"
if "$BIN/kubeconform" -strict -kubernetes-version "$K8S_VERSION" \
  -schema-location "$SCHEMAS/{{ .NormalizedKubernetesVersion }}-local{{ .StrictSuffix }}/{{ .ResourceKind }}{{ .KindSuffix }}.json" \
  "$out/broken.yaml" >/dev/null 2>&1; then
  log "kubeconform accepted an unknown field: the schemas are not being applied"; exit 1
fi
log "ok"
