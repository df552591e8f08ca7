#!/usr/bin/env python3
"""The Kubernetes manifests in deploy/kubernetes: valid YAML of the right
kinds; DaemonSets that are HostProcess pods on Windows nodes; every ConfigMap
key, volume and image file they use exists; and the paths and names agree
with wincni-install: the native installer is run with the ConfigMap's values
as the init container passes them, and its config, its net-conf.json and its
--layouts are compared with what flanneld and kube-proxy are started with.
What needs a Windows node is listed in deploy/kubernetes/README.md.

usage: test_manifests.py --source SOURCE_DIR --installer WINCNI_INSTALL BINARY..."""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

failures = []


def check(ok, what):
    print(f'{"ok  " if ok else "FAIL"} {what}', flush=True)
    if not ok:
        failures.append(what)


EXPECTED_KINDS = [('v1', 'ConfigMap'), ('v1', 'ServiceAccount'), ('rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'),
                  ('apps/v1', 'DaemonSet'), ('apps/v1', 'DaemonSet')]
SERVICE_ACCOUNT = 'var\\run\\secrets\\kubernetes.io\\serviceaccount'
SANDBOX_PATH = re.compile(r"(?:\$env:CONTAINER_SANDBOX_MOUNT_POINT\\|Join-Path \$root ')([A-Za-z0-9_.\\-]+\\[A-Za-z0-9_.\\-]+)")


def project_version(source):
    with open(os.path.join(source, 'meson.build')) as f:
        return re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)


def image_files(image_dir):
    """Each file the Dockerfile puts in the image, as a Windows path under the
    sandbox mount point, mapped to where it comes from."""
    files = {}
    with open(os.path.join(image_dir, 'Dockerfile')) as f:
        for line in f:
            words = line.split()
            if not words or words[0] != 'COPY':
                continue
            *sources, destination = words[1:]
            for source in sources:
                name = os.path.basename(source.rstrip('/'))
                if source.endswith('/'):
                    files[destination.strip('/').replace('/', '\\')] = source  # a folder
                elif destination.endswith('/'):
                    files[(destination.strip('/') + '/' + name).replace('/', '\\')] = source
    return files


def release_binaries(source):
    """The file names in a release's bin/ (scripts/release/layout.py)."""
    with open(os.path.join(source, 'scripts', 'release', 'layout.py')) as f:
        return set(re.findall(r"'[\w/.-]+/([\w.-]+\.exe)'", f.read()))


# kube-flannel.yml's net-conf.json as sig-windows-tools' flannel guide has it
# edited for Windows nodes (VNI 4096, port 4789), and its host-gw form.
CLUSTER_NET_CONFS = {
    'vxlan': '{\n  "Network": "10.244.0.0/16",\n  "EnableNFTables": false,\n'
             '  "Backend": {\n    "Type": "vxlan",\n    "VNI": 4096,\n    "Port": 4789\n  }\n}\n',
    'host-gw': '{\n  "Network": "10.244.0.0/16",\n  "Backend": {\n    "Type": "host-gw"\n  }\n}\n',
}
FLANNELD_NETWORK = {'vxlan': 'flannel.4096', 'host-gw': 'cbr0'}


def run_installer(installer, binaries, config_map, init, work, backend):
    """The init container's run of wincni-install, into folders under work:
    its variables from the ConfigMap, its --net-conf kube-flannel-cfg's."""
    src = os.path.join(work, 'src')
    os.makedirs(src, exist_ok=True)
    for binary in binaries:
        shutil.copy2(binary, src)
    net_conf_file = os.path.join(work, 'net-conf.json')
    with open(net_conf_file, 'w') as f:
        f.write(CLUSTER_NET_CONFS[backend])
    env = {'PATH': os.environ.get('PATH', '/usr/bin:/bin'), 'WINCNI_NODE_IP': '192.0.2.10'}
    for name, item in env_of(init).items():
        if 'value' in item:
            env[name] = item['value']
        elif 'configMapKeyRef' in item.get('valueFrom', {}):
            env[name] = config_map[item['valueFrom']['configMapKeyRef']['key']]
    run = subprocess.run([installer, '--source-dir', src, '--bin-dir', os.path.join(work, 'bin'), '--conf-dir',
                          os.path.join(work, 'conf'), '--flanneld-conf-dir', os.path.join(work, 'flanneld'),
                          '--net-conf', net_conf_file],
                         env=env, capture_output=True, text=True, timeout=60)
    check(run.returncode == 0, f'wincni-install takes the ConfigMap\'s values and {backend} net-conf.json '
                               f'({run.stderr.strip()})')
    with open(os.path.join(work, 'conf', '10-flannel.conflist')) as f:
        conflist = json.load(f)
    with open(os.path.join(work, 'flanneld', 'net-conf.json')) as f:
        net_conf = f.read()
    return conflist, net_conf


def env_of(container):
    return {item['name']: item for item in container.get('env', [])}


def check_daemonset(ds, config_map, image, files, binaries):
    name = ds['metadata']['name']
    spec = ds['spec']
    template = spec['template']
    labels = template['metadata']['labels']
    check(all(labels.get(k) == v for k, v in spec['selector']['matchLabels'].items()),
          f'{name}: the selector matches its pods')
    pod = template['spec']
    check(pod.get('nodeSelector') == {'kubernetes.io/os': 'windows'}, f'{name}: runs on Windows nodes only')
    check(pod.get('hostNetwork') is True, f'{name}: hostNetwork, as HostProcess pods must')
    windows = pod.get('securityContext', {}).get('windowsOptions', {})
    check(windows.get('hostProcess') is True and windows.get('runAsUserName') == 'NT AUTHORITY\\system',
          f'{name}: a HostProcess pod running as SYSTEM')
    tolerations = pod.get('tolerations', [])
    for wanted in ({'operator': 'Exists', 'effect': 'NoSchedule'}, {'operator': 'Exists', 'effect': 'NoExecute'},
                   {'key': 'CriticalAddonsOnly', 'operator': 'Exists'}):
        check(wanted in tolerations, f'{name}: tolerates {wanted}')
    strategy = spec.get('updateStrategy', {})
    check(strategy.get('type') == 'RollingUpdate' and strategy.get('rollingUpdate', {}).get('maxUnavailable') == 1,
          f'{name}: replaced one node at a time')
    for container in pod['containers']:
        check(container.get('resources', {}).get('requests'), f'{name}/{container["name"]}: requests resources')
    check(ds['metadata'].get('namespace') == 'kube-flannel', f'{name}: in kube-flannel.yml\'s namespace')
    volumes = {volume['name'] for volume in pod.get('volumes', [])}
    for volume in pod.get('volumes', []):
        check(volume.get('configMap', {}).get('name') in ('kube-flannel-cfg', 'wincni-config'),
              f'{name}: volume {volume["name"]} is kube-flannel-cfg (the cluster\'s own net-conf.json)')
    for container in pod.get('initContainers', []) + pod['containers']:
        where = f'{name}/{container["name"]}'
        check(container['image'] == image, f'{where}: image {container["image"]} is {image}')
        mounted = set()
        for mount in container.get('volumeMounts', []):
            check(mount['name'] in volumes, f'{where}: volume {mount["name"]} is declared')
            mounted.add(mount['mountPath'].strip('/').replace('/', '\\'))
        for item in container.get('env', []):
            ref = item.get('valueFrom', {}).get('configMapKeyRef')
            if ref:
                check(ref['name'] == 'wincni-config' and ref['key'] in config_map,
                      f'{where}: {item["name"]} comes from wincni-config key {ref["key"]}')
        for path in SANDBOX_PATH.findall(' '.join(container['command'])):
            in_mount = any(path.startswith(mount + '\\') for mount in mounted)
            check(in_mount or is_in_image(path, files, binaries), f'{where}: uses {path}, which the image or a mount has')


def is_in_image(path, files, binaries):
    if path in files:
        return True
    folder, _, name = path.rpartition('\\')
    return files.get(folder) == 'bin/' and name in binaries


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--source', required=True)
    parser.add_argument('--installer', required=True)
    parser.add_argument('binaries', nargs='+')
    args = parser.parse_args()
    deploy = os.path.join(args.source, 'deploy', 'kubernetes')
    image_dir = os.path.join(deploy, 'image')

    with open(os.path.join(deploy, 'wincni-windows.yml')) as f:
        documents = [doc for doc in yaml.safe_load_all(f) if doc is not None]
    check([(doc.get('apiVersion'), doc.get('kind')) for doc in documents] == EXPECTED_KINDS,
          f'the kinds are {EXPECTED_KINDS}')
    config_map = next(doc['data'] for doc in documents if doc['kind'] == 'ConfigMap')
    check(all(isinstance(value, str) for value in config_map.values()), 'the ConfigMap\'s values are strings')

    files = image_files(image_dir)
    binaries = release_binaries(args.source)
    check('wincni-install.exe' in binaries and 'hnsctl.exe' in binaries, 'a release has the installer and hnsctl')
    for path, source in files.items():
        if not source.endswith('/') and source.endswith('.ps1'):
            check(os.path.isfile(os.path.join(image_dir, source)), f'the image\'s {source} is in deploy/kubernetes/image')
    scripts = {}
    for name in os.listdir(image_dir):
        if name.endswith('.ps1'):
            with open(os.path.join(image_dir, name)) as f:
                scripts[name] = f.read()
    daemonsets = [doc for doc in documents if doc['kind'] == 'DaemonSet']
    # What is under the sandbox mount point besides the image: the volumes,
    # and the service account's token and CA, which Kubernetes mounts.
    # Each script is checked against the mounts of the containers that run
    # it (kubeconfig.ps1, dot-sourced, against every container's).
    for name, text in scripts.items():
        mounts = {SERVICE_ACCOUNT}
        for ds in daemonsets:
            pod = ds['spec']['template']['spec']
            for container in pod.get('initContainers', []) + pod['containers']:
                if name in ' '.join(container['command']) or name == 'kubeconfig.ps1':
                    mounts |= {mount['mountPath'].strip('/').replace('/', '\\')
                               for mount in container.get('volumeMounts', [])}
        for path in SANDBOX_PATH.findall(text):
            mounted = any(path == mount or path.startswith(mount + '\\') for mount in mounts)
            check(mounted or is_in_image(path, files, binaries), f'{name}: uses {path}, which the image or a mount '
                                                                 'of the container running it has')

    image = f'wincni-flannel:{project_version(args.source)}'
    for ds in daemonsets:
        check_daemonset(ds, config_map, image, files, binaries)
    flannel_ds = next(ds for ds in daemonsets if ds['metadata']['name'] == 'wincni-flannel')
    init = flannel_ds['spec']['template']['spec']['initContainers'][0]
    check('wincni-install.exe' in ' '.join(init['command']), 'the flannel pod starts with wincni-install')
    check(env_of(init)['WINCNI_LAYOUT']['value'] == 'containerd', 'it installs for containerd')

    check(flannel_ds['spec']['template']['spec']['serviceAccountName'] == 'flannel',
          'flanneld runs as kube-flannel.yml\'s service account')
    check('--net-conf "$env:CONTAINER_SANDBOX_MOUNT_POINT\\etc\\kube-flannel\\net-conf.json"' in
          ' '.join(init['command']), 'the installer reads kube-flannel-cfg\'s net-conf.json where it is mounted')

    work = tempfile.mkdtemp(prefix='wincni-deploy-')
    try:
        results = {backend: run_installer(args.installer, args.binaries, config_map, init,
                                          os.path.join(work, backend), backend) for backend in CLUSTER_NET_CONFS}
        layouts = json.loads(subprocess.run([args.installer, '--layouts'], capture_output=True, text=True,
                                            check=True).stdout)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for backend, (conflist, net_conf) in results.items():
        check(conflist['name'] == FLANNELD_NETWORK[backend],
              f'{backend}: the CNI config names the network flanneld makes ({conflist["name"]})')
        check(conflist['plugins'][0]['serviceCIDR'] == config_map['service-cidr'],
              f'{backend}: the service CIDR reaches the config')
        check(net_conf == CLUSTER_NET_CONFS[backend], f'{backend}: flanneld gets kube-flannel-cfg\'s net-conf.json '
                                                      'as it is')

    # A feature gate removed upstream stops kube-proxy from starting.
    proxy = scripts['start-kube-proxy.ps1']
    check('--feature-gates' not in proxy, 'kube-proxy is started without feature gates')
    conflist_path = layouts['containerd']['conf'] + '\\10-flannel.conflist'
    check(f"$conflist = '{conflist_path}'" in proxy,
          f'kube-proxy takes the network\'s name from the config wincni-install writes ({conflist_path})')
    check("etc\\kube-flannel\\net-conf.json" in proxy and '$netConf.Network' in proxy and
          '$netConf.IPv6Network' in proxy and '"--cluster-cidr=$clusterCidr"' in proxy,
          'kube-proxy\'s cluster CIDR is kube-flannel-cfg\'s Network (and IPv6Network on dual stack)')
    for ds in daemonsets:
        for container in ds['spec']['template']['spec']['containers']:
            ref = env_of(container).get('KUBELET_KUBECONFIG', {}).get('valueFrom', {}).get('configMapKeyRef', {})
            check(ref.get('key') == 'kubelet-kubeconfig',
                  f'{ds["metadata"]["name"]}: the API server\'s address comes from the kubelet\'s kubeconfig')
    flanneld = scripts['start-flanneld.ps1']
    flannel_env = env_of(flannel_ds['spec']['template']['spec']['containers'][0])
    check('--iface $env:NODE_IP' in flanneld and
          flannel_env.get('NODE_IP', {}).get('valueFrom', {}).get('fieldRef', {}).get('fieldPath') == 'status.hostIP',
          'flanneld is started with --iface, the node\'s address')
    check('route.exe /p add 169.254.169.254 mask 255.255.255.255' in flanneld,
          'the cloud metadata address is routed through the node, as sig-windows-tools\' script does')
    net_conf_path = layouts['flanneld']['conf'] + '\\net-conf.json'
    check(f"--net-config-path '{net_conf_path}'" in flanneld,
          f'flanneld reads net-conf.json where wincni-install writes it ({net_conf_path})')
    check(f"--subnet-file '{layouts['flannel']['subnetFile']}'" in flanneld,
          f'flanneld writes subnet.env where the flannel plugin reads it ({layouts["flannel"]["subnetFile"]})')

    with open(os.path.join(deploy, 'README.md')) as f:
        readme = f.read()
    for folder in (layouts['containerd']['bin'], layouts['containerd']['conf']):
        check(folder.replace('\\', '\\\\') in readme or folder in readme,
              f'the README names containerd\'s folder {folder}')
    print(f'{len(failures)} failed')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
