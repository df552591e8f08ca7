#!/usr/bin/env bash
# A pod's network set up and torn down through the real plugins, on the HNS
# emulator: an emulated flannel node (hnsctl), a pod namespace, then ADD,
# CHECK and DEL as containerd runs them, through flannel (which turns
# flanneld's subnet.env into its delegate's config) or straight to the
# plugin. Everything lives in a scratch directory that is removed at the end.
#
#   scripts/demo/pod-lifecycle.sh BUILD_DIR [host-gw|vxlan|bridge|overlay]
#     BUILD_DIR  a native build, e.g. build/linux
#     host-gw    flannel -> win-bridge on a flannel host-gw node (the default)
#     vxlan      flannel -> win-overlay on a flannel vxlan node (VNI 4096)
#     bridge     win-bridge alone, with a hand-written config, on the host-gw node
#     overlay    win-overlay alone, with a hand-written config, on the vxlan node
set -euo pipefail

usage="usage: $0 BUILD_DIR [host-gw|vxlan|bridge|overlay]"
build=${1:?$usage}
mode=${2:-host-gw}
build=$(cd "$build" && pwd)
case $mode in
  host-gw | bridge) delegate=win-bridge backend=host-gw ;;
  vxlan | overlay) delegate=win-overlay backend=vxlan ;;
  *) echo "$usage" >&2; exit 2 ;;
esac
case $mode in
  host-gw | vxlan) plugin=flannel ;;
  *) plugin=$delegate ;;
esac
hnsctl=$build/hnsctl/hnsctl
binaries=("$build/plugins/flannel/flannel" "$build/plugins/win-bridge/win-bridge"
  "$build/plugins/win-overlay/win-overlay" "$build/ipam/host-local/host-local")
for binary in "${binaries[@]}" "$hnsctl"; do
  [ -x "$binary" ] || { echo "$binary is missing: build $build first" >&2; exit 1; }
done

scratch=$(mktemp -d -t wincni-demo.XXXXXX)
trap 'rm -rf "$scratch"' EXIT
export WINCNI_EMULATOR_DIR=$scratch/hns   # the emulated node's HNS
export WINCNI_DATA_DIR=$scratch/plugin    # the plugin's lock for network creation
mkdir -p "$scratch/bin"                   # the node's CNI bin folder
for binary in "${binaries[@]}"; do ln -s "$binary" "$scratch/bin/"; done

step() { printf '\n== %s\n' "$*"; }
show_json() { if command -v python3 >/dev/null; then python3 -m json.tool; else cat; echo; fi; }

if [ "$backend" = host-gw ]; then
  network=cbr0 subnet=10.244.1.0/24
  node_step="the node, as flanneld's host-gw backend leaves it: network cbr0 (L2Bridge) and the host's cbr0_ep"
  node_command=(node host-gw --subnet "$subnet")
  delegate_extra=',"loopbackDSR":true'
else
  network=flannel.4096 subnet=10.244.3.0/24
  node_step="the node, as flanneld's vxlan backend leaves it: network flannel.4096 (Overlay, VNI 4096)"
  node_command=(node vxlan --subnet "$subnet" --name "$network" --vni 4096)
  delegate_extra=''
fi
dns='"dns":{"nameservers":["10.96.0.10"],"search":["svc.cluster.local"]}'
port_mapping='"runtimeConfig":{"portMappings":[{"hostPort":8080,"containerPort":80,"protocol":"tcp"}]}'
if [ "$plugin" = flannel ]; then
  # flannel's config as conf-examples/flannel-*.conf has it, with the
  # scratch directory's paths: flannel generates the Windows policies from
  # serviceCIDR and what subnet.env and HNS say.
  config='{"cniVersion":"1.0.0","name":"'"$network"'","type":"flannel",
 "subnetFile":"'"$scratch/run/flannel/subnet.env"'","dataDir":"'"$scratch/flannel"'",
 "serviceCIDR":"10.96.0.0/12","capabilities":{"portMappings":true,"dns":true},
 "ipam":{"dataDir":"'"$scratch/ipam"'"},
 "delegate":{"type":"'"$delegate"'",'"$dns$delegate_extra"'},
 '"$port_mapping"'}'
else
  # The plugin's config on the same node under containerd (see
  # conf-examples/win-bridge-containerd.conf, win-overlay-containerd.conf):
  # the policies written by hand.
  policies='[
  {"name":"EndpointPolicy","value":{"Type":"OutBoundNAT","Settings":{"Exceptions":["10.96.0.0/12"]}}},
  {"name":"EndpointPolicy","value":{"Type":"SDNRoute","Settings":{"DestinationPrefix":"10.96.0.0/12","NeedEncap":true}}}]'
  config='{"cniVersion":"1.0.0","name":"'"$network"'","type":"'"$plugin"'","apiVersion":2,
 "ipMasq":true,"ipMasqNetwork":"10.244.0.0/16"'"$delegate_extra"',
 '"$dns"',
 "ipam":{"type":"host-local","subnet":"'"$subnet"'","dataDir":"'"$scratch/ipam"'"},
 "policies":'"$policies"',
 '"$port_mapping"'}'
fi
container=demo-pod

cni() {  # COMMAND NETNS CONFIG: one plugin invocation, as a runtime makes it
  CNI_COMMAND=$1 CNI_CONTAINERID=$container CNI_NETNS=$2 CNI_IFNAME=eth0 CNI_PATH=$scratch/bin \
    "$scratch/bin/$plugin" <<<"$3"
}

step "$node_step"
"$hnsctl" "${node_command[@]}"

if [ "$plugin" = flannel ]; then
  step "flanneld's lease: $scratch/run/flannel/subnet.env"
  mkdir -p "$scratch/run/flannel"
  printf 'FLANNEL_NETWORK=10.244.0.0/16\nFLANNEL_SUBNET=%s\nFLANNEL_MTU=1450\nFLANNEL_IPMASQ=true\n' \
    "${subnet%.0/24}.1/24" | tee "$scratch/run/flannel/subnet.env"
fi

step "containerd creates the pod's namespace"
netns=$("$hnsctl" namespace create)
echo "$netns"

if [ "$plugin" = flannel ]; then
  add_step="ADD: flannel hands $delegate a config made from subnet.env; $delegate asks host-local for an address, creates the endpoint and attaches it (the result)"
else
  add_step="ADD: $plugin asks host-local for an address, creates the endpoint and attaches it (the result)"
fi
step "$add_step"
result=$(cni ADD "$netns" "$config")
show_json <<<"$result"

if [ "$plugin" = flannel ]; then
  step "the delegate config flannel generated (saved for DEL in its data folder)"
  show_json <"$scratch/flannel/$container"
fi

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
if [ "$plugin" = flannel ]; then
  saved=$(find "$scratch/flannel" -type f | wc -l)
  echo "delegate configs flannel keeps: $saved"
  [ "$saved" -eq 0 ]
fi
