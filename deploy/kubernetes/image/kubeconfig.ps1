# A kubeconfig for a HostProcess container: kubeadm's kube-proxy kubeconfig
# (mounted from the kube-proxy ConfigMap) names the API server, but it points
# at the service account token and CA by their paths inside a normal
# container (/var/run/secrets/...). In a HostProcess container those files
# are under the sandbox mount point instead, so the paths are rewritten.
function Write-SandboxKubeconfig([string]$Destination) {
  $root = $env:CONTAINER_SANDBOX_MOUNT_POINT
  $source = Join-Path $root 'var\lib\kube-proxy\kubeconfig.conf'
  $secrets = Join-Path $root 'var\run\secrets\kubernetes.io\serviceaccount'
  $text = (Get-Content -Raw $source) -replace '/var/run/secrets/kubernetes.io/serviceaccount', ($secrets -replace '\\', '/')
  # ASCII: no byte-order mark, which client-go's YAML reader refuses.
  Set-Content -Encoding ascii -Path $Destination -Value $text
}
