# flanneld on a Windows node. The install-cni init container has already run
# wincni-install, which wrote kube-flannel-cfg's net-conf.json where
# --net-config-path says.
$ErrorActionPreference = 'Stop'
$root = $env:CONTAINER_SANDBOX_MOUNT_POINT
. (Join-Path $root 'wincni\scripts\kubeconfig.ps1')
$kubeconfig = Join-Path $root 'flanneld.kubeconfig'
Write-SandboxKubeconfig $kubeconfig

# Cloud metadata (169.254.169.254) through the node's own interface, not
# into the pod network: sig-windows-tools' flannel start script adds the same
# persistent route (kubernetes-sigs/sig-windows-tools#36).
if (-not (Get-NetRoute -DestinationPrefix '169.254.169.254/32' -ErrorAction SilentlyContinue)) {
  route.exe /p add 169.254.169.254 mask 255.255.255.255 0.0.0.0 | Out-Null
}

# The paths are the defaults of wincni-install (net-conf.json) and of the
# flannel CNI plugin (subnet.env); the manifests' test holds them together.
# --iface: the node's address, so that flanneld does not pick another
# adapter's (a second NIC, a VPN) as its public IP.
& (Join-Path $root 'flannel\flanneld.exe') --kube-subnet-mgr --kubeconfig-file $kubeconfig `
  --iface $env:NODE_IP `
  --net-config-path 'C:\etc\kube-flannel\net-conf.json' --subnet-file 'C:\run\flannel\subnet.env'
exit $LASTEXITCODE
