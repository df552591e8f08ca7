#!/usr/bin/env bash
# A pod's network set up and torn down through the real plugins, on the HNS
# emulator: an emulated flannel node (hnsctl), a pod namespace, then ADD
# through the plugin (which delegates the address to host-local), CHECK and
# DEL, as containerd runs them. Everything lives in a scratch directory that
# is removed at the end.
#
#   scripts/demo/pod-lifecycle.sh BUILD_DIR [bridge|overlay]
#     BUILD_DIR  a native build, e.g. build/linux
#     bridge     win-bridge on a flannel host-gw node (the default)
#     overlay    win-overlay on a flannel vxlan node (VNI 4096)
set -euo pipefail

usage="usage: $0 BUILD_DIR [bridge|overlay]"
build=${1:?$usage}
mode=${2:-bridge}
build=$(cd "$build" && pwd)
case $mode in
  bridge) plugin=$build/plugins/win-bridge/win-bridge ;;
  overlay) plugin=$build/plugins/win-overlay/win-overlay ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
host_local=$build/ipam/host-local/host-local
hnsctl=$build/hnsctl/hnsctl
for binary in "$plugin" "$host_local" "$hnsctl"; do
  [ -x "$binary" ] || { echo "$binary is missing: build $build first" >&2; exit 1; }
done

scratch=$(mktemp -d -t wincni-demo.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export WINCNI_EMULATOR_DIR=$scratch/hns   # the emulated node's HNS
export WINCNI_DATA_DIR=$scratch/plugin    # the plugin's lock for network creation
mkdir -p "$scratch/bin"
ln -s "$host_local" "$scratch/bin/host-local"

step() { printf '\n== %s\n' "$*"; }
show_json() { if command -v python3 >/dev/null; then python3 -m json.tool; else cat; echo; fi; }

policies='[
  {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.96.0.0/12"]}}},
  {"name":"EndpointPolicy","value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}}}]'
if [ "$mode" = bridge ]; then
  # win-bridge's config on a flannel host-gw node under containerd (see
  # conf-examples/win-bridge-containerd.conf), with host-local's data in the
  # scratch directory.
  network=cbr0 subnet=10.244.1.0/24
  node_step="the node, as flanneld's host-gw backend leaves it: network cbr0 (L2Bridge) and the host's cbr0_ep"
  node_command=(node host-gw --subnet "$subnet")
  extra='"loopbackDSR":true,'
else
  # win-overlay's config on a flannel vxlan node under containerd (see
  # conf-examples/win-overlay-containerd.conf).
  network=flannel.4096 subnet=10.244.3.0/24
  node_step="the node, as flanneld's vxlan backend leaves it: network flannel.4096 (Overlay, VNI 4096)"
  node_command=(node vxlan --subnet "$subnet" --name "$network" --vni 4096)
  extra=''
fi
config='{"cniVersion":"1.0.0","name":"'"$network"'","type":"'"$(basename "$plugin")"'","apiVersion":2,
 "ipMasq":true,"ipMasqNetwork":"10.244.0.0/16",'"$extra"'
 "dns":{"nameservers":["10.96.0.10"],"search":["svc.cluster.local"]},
 "ipam":{"type":"host-local","subnet":"'"$subnet"'","dataDir":"'"$scratch/ipam"'"},
 "policies":'"$policies"',
 "runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]}}'
container=demo-pod

cni() {  # COMMAND NETNS CONFIG: one plugin invocation, as a runtime makes it
  CNI_COMMAND=$1 CNI_CONTAINERID=$container CNI_NETNS=$2 CNI_IFNAME=eth0 CNI_PATH=$scratch/bin \
    "$plugin" <<<"$3"
}

step "$node_step"
"$hnsctl" "${node_command[@]}"

step "containerd creates the pod's namespace"
netns=$("$hnsctl" namespace create)
echo "$netns"

step "ADD: $(basename "$plugin") asks host-local for an address, creates the endpoint and attaches it (the result)"
result=$(cni ADD "$netns" "$config")
show_json <<<"$result"

step "the endpoint in HNS"
"$hnsctl" endpoint show "${container}_$network"

step "CHECK against that result"
cni CHECK "$netns" "${config%\}},\"prevResult\":$result}"
echo "ok"

step "DEL"
cni DEL "$netns" "$config"
echo "ok"
"$hnsctl" namespace delete "$netns" >/dev/null

step "the node is clean: nothing leaked (only flanneld's own endpoints), no address held"
"$hnsctl" endpoint list
"$hnsctl" audit
held=$(find "$scratch/ipam" -type f ! -name lock ! -name 'last_reserved_ip.*' | wc -l)
echo "addresses host-local holds: $held"
[ "$held" -eq 0 ]
