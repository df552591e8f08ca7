# flanneld on a Windows node. The install-cni init container has already run
# wincni-install, which wrote net-conf.json where --net-config-path says.
$ErrorActionPreference = 'Stop'
$root = $env:CONTAINER_SANDBOX_MOUNT_POINT
. (Join-Path $root 'wincni\scripts\kubeconfig.ps1')
$kubeconfig = Join-Path $root 'flanneld.kubeconfig'
Write-SandboxKubeconfig $kubeconfig
# The paths are the defaults of wincni-install (net-conf.json) and of the
# flannel CNI plugin (subnet.env); the manifests' test holds them together.
& (Join-Path $root 'flannel\flanneld.exe') --kube-subnet-mgr --kubeconfig-file $kubeconfig `
  --net-config-path 'C:\etc\kube-flannel\net-conf.json' --subnet-file 'C:\run\flannel\subnet.env'
exit $LASTEXITCODE
