#!/usr/bin/env bash
# A pod's network set up and torn down through the real binaries, on the HNS
# emulator: the node as flanneld's host-gw backend leaves it, a namespace as
# containerd creates it, then win-bridge ADD (delegating to host-local), CHECK
# and DEL, as a runtime would call them, and an audit of what is left.
# Everything lives in a scratch folder that is removed at the end.
#   usage: pod-lifecycle.sh BUILD_DIR
set -euo pipefail
build=$(cd "${1:?usage: pod-lifecycle.sh BUILD_DIR}" && pwd)
hnsctl=$build/hnsctl/hnsctl
bridge=$build/plugins/win-bridge/win-bridge
for bin in "$hnsctl" "$bridge" "$build/ipam/host-local/host-local"; do
  [ -x "$bin" ] || { echo "missing $bin: build first" >&2; exit 1; }
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export WINCNI_EMULATOR_DIR=$scratch/hns
export CNI_PATH=$build/ipam/host-local:$build/plugins/win-bridge

step() { printf '\n== %s\n' "$*"; }

step "node: L2Bridge network cbr0 and host endpoint cbr0_ep, as flanneld (host-gw) leaves them"
"$hnsctl" node host-gw --subnet 10.244.1.0/24 >/dev/null
"$hnsctl" network list
netns=$("$hnsctl" namespace create)
echo "namespace (what containerd creates before ADD): $netns"

config=$(cat <<JSON
{
  "cniVersion": "1.0.0",
  "name": "cbr0",
  "type": "win-bridge",
  "apiVersion": 2,
  "ipMasqNetwork": "10.244.0.0/16",
  "dns": {"nameservers": ["10.96.0.10"], "search": ["svc.cluster.local"]},
  "policies": [
    {"name": "EndpointPolicy", "value": {"Type": "OutBoundNAT", "Settings": {"Exceptions": ["10.96.0.0/12"]}}},
    {"name": "EndpointPolicy", "value": {"Type": "SDNRoute", "Settings": {"DestinationPrefix": "10.96.0.0/12", "NeedEncap": true}}}
  ],
  "ipam": {"type": "host-local", "subnet": "10.244.1.0/24", "dataDir": "$scratch/ipam"}
}
JSON
)

cni() {  # command, extra config keys (JSON members) or ""
  local command=$1 extra=${2:-}
  local stdin=$config
  [ -n "$extra" ] && stdin="${config%\}}, $extra}"
  CNI_COMMAND=$command CNI_CONTAINERID=pod-4f1c2 CNI_NETNS=$netns CNI_IFNAME=eth0 \
    "$bridge" <<<"$stdin"
}

step "ADD (win-bridge -> host-local)"
result=$(cni ADD)
echo "$result"

step "the endpoint in HNS"
"$hnsctl" endpoint show pod-4f1c2_cbr0

step "CHECK against the ADD result"
cni CHECK "\"prevResult\": $result" && echo "CHECK ok"

step "DEL, twice (idempotent)"
cni DEL && cni DEL && echo "DEL ok"

step "the node afterwards"
"$hnsctl" endpoint list
ls -A "$scratch/ipam/cbr0" 2>/dev/null | sed 's/^/host-local data: /' || true
"$hnsctl" namespace delete "$netns"
"$hnsctl" audit && echo "audit: clean"
