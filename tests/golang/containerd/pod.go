package main

// One example's pods, start to finish, as containerd's CRI runs them on a
// Windows node: go-cni set up with CRI's options over the node's config and
// bin folders, the sandbox's labels and capabilities, CRI's checks on the
// result, Check, Remove, and Remove as containerd repeats it after a reboot.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	gocni "github.com/containerd/go-cni"
)

type runner struct {
	examples   string
	subnetEnvs string
	hnsctl     string
	plugins    map[string]string // our binaries by plugin name
}

// run runs e at each of its versions and returns, for the report, the
// addresses containerd found on eth0.
func (r runner) run(e example) (string, error) {
	versions := e.versions
	if len(versions) == 0 {
		versions = []string{""}
	}
	var found []string
	for _, version := range versions {
		addresses, err := r.runVersion(e, version)
		if version != "" {
			if err != nil {
				err = fmt.Errorf("cniVersion %s: %w", version, err)
			}
			addresses = version + ": " + addresses
		}
		if err != nil {
			return "", err
		}
		found = append(found, addresses)
	}
	return strings.Join(found, "; "), nil
}

func (r runner) runVersion(e example, version string) (string, error) {
	n, err := newNode(r.hnsctl)
	if err != nil {
		return "", err
	}
	defer n.remove()
	if err := r.prepare(n, e, version); err != nil {
		return "", err
	}
	cni, err := containerdCNI(n)
	if err != nil {
		return "", err
	}
	if e.refused != "" {
		return "refused", refusedClean(n, cni, e)
	}
	// The pod's sandbox, set up and torn down as CRI does.
	ns, err := n.createNamespace()
	if err != nil {
		return "", err
	}
	id := sandboxID()
	opts := sandboxOptions(id)
	result, err := cni.Setup(context.Background(), id, ns, opts...)
	if err != nil {
		return "", fmt.Errorf("Setup: %w", err)
	}
	primary, additional, err := podIPs(result)
	if err != nil {
		return "", err
	}
	if err := checkAddresses(append([]string{primary}, additional...), e); err != nil {
		return "", err
	}
	if err := checkInterface(n, result, id, ns, e); err != nil {
		return "", err
	}
	if err := checkCachedResult(n, e, id); err != nil {
		return "", err
	}
	config, err := os.ReadFile(n.path("conf", e.file))
	if err != nil {
		return "", err
	}
	if err := checkSearch(n, result, id, e, config); err != nil {
		return "", err
	}
	if supportsCheck(cni.GetConfig().Networks[0].Config.CNIVersion) {
		// CHECK gets the result libcni cached as prevResult.
		if err := cni.Check(context.Background(), id, ns, opts...); err != nil {
			return "", fmt.Errorf("Check: %w", err)
		}
	}
	if err := cni.Remove(context.Background(), id, ns, opts...); err != nil {
		return "", fmt.Errorf("Remove: %w", err)
	}
	if err := n.leftovers(e.network); err != nil {
		return "", fmt.Errorf("after Remove: %w", err)
	}
	// After a reboot the namespace is gone and containerd tears the sandbox
	// down again with an empty path.
	if err := cni.Remove(context.Background(), id, "", opts...); err != nil {
		return "", fmt.Errorf("Remove with no namespace: %w", err)
	}
	if err := n.leftovers(e.network); err != nil {
		return "", fmt.Errorf("after the second Remove: %w", err)
	}
	if err := rebootedPod(n, cni, e); err != nil {
		return "", err
	}
	return strings.Join(append([]string{primary}, additional...), ", "), nil
}

// rebootedPod: a pod whose only teardown is the one containerd sends after
// a reboot, with no namespace path, which must remove all of it.
func rebootedPod(n *node, cni gocni.CNI, e example) error {
	ns, err := n.createNamespace()
	if err != nil {
		return err
	}
	id := sandboxID()
	opts := sandboxOptions(id)
	if _, err := cni.Setup(context.Background(), id, ns, opts...); err != nil {
		return fmt.Errorf("Setup of the pod torn down after a reboot: %w", err)
	}
	if _, err := n.run("namespace", "delete", ns); err != nil {
		return err
	}
	if err := cni.Remove(context.Background(), id, "", opts...); err != nil {
		return fmt.Errorf("Remove with no namespace after a reboot: %w", err)
	}
	if err := n.leftovers(e.network); err != nil {
		return fmt.Errorf("after Remove with no namespace: %w", err)
	}
	return nil
}

// refusedClean: a config containerd cannot run fails Setup with the reason,
// leaving nothing behind.
func refusedClean(n *node, cni gocni.CNI, e example) error {
	ns, err := n.createNamespace()
	if err != nil {
		return err
	}
	id := sandboxID()
	_, err = cni.Setup(context.Background(), id, ns, sandboxOptions(id)...)
	if err == nil {
		return fmt.Errorf("Setup succeeded; want it refused (%s)", e.refused)
	}
	if !strings.Contains(err.Error(), e.refused) {
		return fmt.Errorf("Setup's error does not say %q: %v", e.refused, err)
	}
	return n.leftovers(e.network)
}

// prepare makes the node e runs on: flanneld's network and subnet.env, the
// bin folder with our plugins (and the names configs give them), and the
// config, its paths pointed into the node, alone in the config folder.
func (r runner) prepare(n *node, e example, version string) error {
	if len(e.node) > 0 {
		if _, err := n.run(e.node...); err != nil {
			return err
		}
	}
	if e.subnetEnv != "" {
		text, err := os.ReadFile(filepath.Join(r.subnetEnvs, e.subnetEnv))
		if err != nil {
			return err
		}
		if err := os.MkdirAll(n.path("run", "flannel"), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(n.path("run", "flannel", "subnet.env"), text, 0o644); err != nil {
			return err
		}
	}
	for name, binary := range r.plugins {
		if err := n.install(binary, name); err != nil {
			return err
		}
	}
	for alias, plugin := range e.aliases {
		if err := n.install(r.plugins[plugin], alias); err != nil {
			return err
		}
	}
	text := []byte(e.text)
	if e.text == "" {
		var err error
		if text, err = os.ReadFile(filepath.Join(r.examples, e.file)); err != nil {
			return err
		}
	}
	config, err := pointedIntoNode(text, n, version)
	if err != nil {
		return fmt.Errorf("%s: %w", e.file, err)
	}
	return os.WriteFile(n.path("conf", e.file), config, 0o644)
}

// pointedIntoNode is the config with flannel's subnet.env and scratch
// folder and host-local's store in the node, at the given version.
func pointedIntoNode(text []byte, n *node, version string) ([]byte, error) {
	var config map[string]interface{}
	if err := json.Unmarshal(text, &config); err != nil {
		return nil, err
	}
	if version != "" {
		config["cniVersion"] = version
	}
	plugins, isList := config["plugins"].([]interface{})
	if !isList {
		plugins = []interface{}{config}
	}
	for _, p := range plugins {
		plugin := p.(map[string]interface{})
		if plugin["type"] == "flannel" {
			plugin["subnetFile"] = n.path("run", "flannel", "subnet.env")
			plugin["dataDir"] = n.path("flannel")
			plugin["ipam"] = map[string]interface{}{"dataDir": n.path("ipam")}
		} else if ipam, ok := plugin["ipam"].(map[string]interface{}); ok && ipam["type"] == "host-local" {
			ipam["dataDir"] = n.path("ipam")
		}
	}
	return json.MarshalIndent(config, "", "  ")
}

// containerdCNI is go-cni as containerd's CRI makes it on Windows
// (internal/cri/server/service_windows.go): one network at least, the
// node's config and bin folders, interfaces named eth<i>, the configs
// loaded from the folder (the first one sorted, max_conf_num 1).
func containerdCNI(n *node) (gocni.CNI, error) {
	cni, err := gocni.New(
		gocni.WithMinNetworkCount(1),
		gocni.WithPluginConfDir(n.path("conf")),
		gocni.WithPluginMaxConfNum(1),
		gocni.WithPluginDir(n.binDirs()),
		gocni.WithInterfacePrefix("eth"))
	if err != nil {
		return nil, fmt.Errorf("go-cni New: %w", err)
	}
	if err := cni.Load(gocni.WithDefaultConf); err != nil {
		return nil, fmt.Errorf("go-cni Load: %w", err)
	}
	if err := cni.Status(); err != nil {
		return nil, fmt.Errorf("go-cni Status: %w", err)
	}
	return cni, nil
}

// sandboxOptions are what CRI passes go-cni for a pod sandbox
// (internal/cri/server/sandbox_run.go, cniNamespaceOpts): the pod's labels,
// its annotations, and the port mappings, bandwidth and DNS it asks for;
// libcni hands each capability only to a plugin that declares it.
func sandboxOptions(id string) []gocni.NamespaceOpts {
	return []gocni.NamespaceOpts{
		gocni.WithLabels(map[string]string{
			"IgnoreUnknown":              "1",
			"K8S_POD_NAMESPACE":          "default",
			"K8S_POD_NAME":               "web-0",
			"K8S_POD_INFRA_CONTAINER_ID": id,
			"K8S_POD_UID":                "9d1c2a4e-5b7f-4c1e-8a3d-2f6b0e9c7d41",
		}),
		gocni.WithCapability("io.kubernetes.cri.pod-annotations", map[string]string{"team": "web"}),
		gocni.WithCapabilityPortMap([]gocni.PortMapping{{HostPort: 8080, ContainerPort: 80, Protocol: "tcp"}}),
		gocni.WithCapabilityBandWidth(gocni.BandWidth{IngressRate: 1000000, IngressBurst: 1000000}),
		gocni.WithCapabilityDNS(podDNSConfig()),
	}
}

// podDNSConfig is the pod's dnsConfig as the kubelet forms it for a
// ClusterFirst pod (pkg/kubelet/network/dns), which CRI hands go-cni.
func podDNSConfig() gocni.DNS {
	return gocni.DNS{
		Servers:  []string{"10.96.0.10"},
		Searches: []string{"default.svc.cluster.local", "svc.cluster.local"},
		Options:  []string{"ndots:5"},
	}
}

// supportsCheck: CHECK came with CNI 0.4.0; libcni refuses it before.
func supportsCheck(version string) bool {
	return version != "" && version != "0.1.0" && version != "0.2.0" && version != "0.3.0" && version != "0.3.1"
}

// checkAddresses: every address the pod got is in one of its subnets, one
// per subnet, in the subnets' order, none below the lowest host or taken.
func checkAddresses(addresses []string, e example) error {
	if len(addresses) != len(e.subnets) {
		return fmt.Errorf("the pod has %d addresses (%v); want one in each of %v", len(addresses), addresses, e.subnets)
	}
	for i, text := range addresses {
		address := net.ParseIP(text)
		_, subnet, _ := net.ParseCIDR(e.subnets[i])
		if address == nil || !subnet.Contains(address) {
			return fmt.Errorf("address %d, %s, is not in %s", i, text, e.subnets[i])
		}
		for _, taken := range e.taken {
			if text == taken {
				return fmt.Errorf("the pod got %s, which the node holds", text)
			}
		}
		if v4 := address.To4(); v4 != nil && int(v4[3]) < e.lowestHost {
			return fmt.Errorf("address %s: host .%d is below .%d", text, v4[3], e.lowestHost)
		}
	}
	return nil
}
