# A kubeconfig for a HostProcess container: the API server's address from
# the node's own kubelet kubeconfig ($env:KUBELET_KUBECONFIG; kubeadm's is
# C:\etc\kubernetes\kubelet.conf, rke2's and k3s's their agent's), and the
# pod's service account token and CA, which a HostProcess container finds
# under its sandbox mount point, not at /var/run/secrets. The address must
# be the API server's own: no service address works on the node before
# flanneld and kube-proxy run.
function Write-SandboxKubeconfig([string]$Destination) {
  $root = $env:CONTAINER_SANDBOX_MOUNT_POINT
  $kubelet = if ($env:KUBELET_KUBECONFIG) { $env:KUBELET_KUBECONFIG } else { 'C:\etc\kubernetes\kubelet.conf' }
  $server = Get-Content $kubelet | ForEach-Object { if ($_ -match '^\s*server:\s*(\S+)') { $Matches[1] } } |
    Select-Object -First 1
  if (-not $server) { throw "no API server address (server:) in $kubelet; set kubelet-kubeconfig in wincni-config" }
  $secrets = (Join-Path $root 'var\run\secrets\kubernetes.io\serviceaccount') -replace '\\', '/'
  $text = @"
apiVersion: v1
kind: Config
clusters:
- name: cluster
  cluster:
    server: $server
    certificate-authority: $secrets/ca.crt
users:
- name: pod
  user:
    tokenFile: $secrets/token
contexts:
- name: pod
  context:
    cluster: cluster
    user: pod
current-context: pod
"@
  # ASCII: no byte-order mark, which client-go's YAML reader refuses.
  Set-Content -Encoding ascii -Path $Destination -Value $text
}
