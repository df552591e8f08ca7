# kube-proxy on a Windows node, on the HNS network flanneld created. The
# network's name is the one the CNI config wincni-install wrote gives, the
# backend and pod network are kube-flannel-cfg's: nothing is said twice. On
# vxlan kube-proxy needs a source VIP: an address of the node's pod subnet
# that no pod gets, which hnsctl reserves in the pods' own host-local store
# (and moves when the node's subnet changed).
$ErrorActionPreference = 'Stop'
$root = $env:CONTAINER_SANDBOX_MOUNT_POINT
$hnsctl = Join-Path $root 'wincni\bin\hnsctl.exe'
. (Join-Path $root 'wincni\scripts\kubeconfig.ps1')
$kubeconfig = Join-Path $root 'kube-proxy.kubeconfig'
Write-SandboxKubeconfig $kubeconfig

$netConf = Get-Content -Raw (Join-Path $root 'etc\kube-flannel\net-conf.json') | ConvertFrom-Json
$conflist = 'C:\etc\cni\net.d\10-flannel.conflist'
while (-not (Test-Path $conflist)) {
  Write-Output "waiting for $conflist (wincni-install)"
  Start-Sleep -Seconds 2
}
$network = (Get-Content -Raw $conflist | ConvertFrom-Json).name

# flanneld creates the network once it has the node's lease. hnsctl says
# on stderr that it is missing, which Windows PowerShell 5.1 turns into an
# error record once redirected: "Stop" would end the script on the first try.
$ErrorActionPreference = 'Continue'
while ($true) {
  & $hnsctl network show $network *> $null
  if ($LASTEXITCODE -eq 0) { break }
  Write-Output "waiting for HNS network $network"
  Start-Sleep -Seconds 2
}
$ErrorActionPreference = 'Stop'

# Both families' pod networks on a dual-stack cluster.
$clusterCidr = $netConf.Network
if ($netConf.EnableIPv6 -and $netConf.IPv6Network) { $clusterCidr += ",$($netConf.IPv6Network)" }
$arguments = @(
  "--hostname-override=$env:NODE_NAME",
  "--kubeconfig=$kubeconfig",
  '--proxy-mode=kernelspace',
  "--network-name=$network",
  "--cluster-cidr=$clusterCidr",
  '--v=2'
)
# Only flags every supported kube-proxy accepts: the WinDSR feature gate is
# GA and its removal pending, after which naming it stops kube-proxy from
# starting, and --enable-dsr needs the gate where it is not on by default.
# DSR is opt-in here (deploy/kubernetes/README.md).
if ($env:KUBE_PROXY_EXTRA_ARGS) { $arguments += ($env:KUBE_PROXY_EXTRA_ARGS -split ' ' | Where-Object { $_ }) }
if ($netConf.Backend.Type -eq 'vxlan') {
  $sourceVip = (& $hnsctl source-vip $network --endpoint | Select-Object -Last 1)
  if ($LASTEXITCODE -ne 0) { throw "hnsctl source-vip failed" }
  $arguments += "--source-vip=$sourceVip"
}
& (Join-Path $root 'kube-proxy\kube-proxy.exe') @arguments
exit $LASTEXITCODE
