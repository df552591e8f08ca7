package main

// One example's pod, start to finish, through Go's libcni.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"

	"github.com/containernetworking/cni/libcni"
	types100 "github.com/containernetworking/cni/pkg/types/100"
)

type runner struct {
	examples   string
	subnetEnvs string
	hnsctl     string
	pluginDirs []string
}

func (r runner) run(e example) error {
	n, err := newNode(r.hnsctl)
	if err != nil {
		return err
	}
	defer n.remove()
	if _, err := n.run(e.node...); err != nil {
		return err
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
	list, err := r.load(e.file, n)
	if err != nil {
		return err
	}
	cni := libcni.NewCNIConfigWithCacheDir(r.pluginDirs, n.path("go-cache"), nil)
	ctx := context.Background()

	if _, err := cni.ValidateNetworkList(ctx, list); err != nil {
		return fmt.Errorf("ValidateNetworkList: %w", err)
	}
	netns, err := n.createNamespace()
	if err != nil {
		return err
	}
	pod := podRuntime("go-pod-1", netns)
	added, err := cni.AddNetworkList(ctx, list, pod)
	if err != nil {
		return fmt.Errorf("AddNetworkList: %w", err)
	}
	result, err := types100.NewResultFromResult(added)
	if err != nil {
		return fmt.Errorf("the result as Go's 1.0.0 result: %w", err)
	}
	if err := checkAddress(result, e); err != nil {
		return err
	}
	if err := checkEndpoint(n, pod.ContainerID+"_"+e.network, e); err != nil {
		return err
	}
	// The address is held where host-local keeps it, so that the checks
	// after DEL look at the right store.
	held := n.path("ipam", e.network, result.IPs[0].Address.IP.String())
	if _, err := os.Stat(held); err != nil {
		return fmt.Errorf("host-local does not hold the pod's address: %w", err)
	}
	if _, err := cni.GetNetworkListCachedResult(list, pod); err != nil {
		return fmt.Errorf("GetNetworkListCachedResult: %w", err)
	}
	// CHECK gets the cached result as prevResult, as containerd sends it.
	if err := cni.CheckNetworkList(ctx, list, pod); err != nil {
		return fmt.Errorf("CheckNetworkList: %w", err)
	}
	if err := cni.DelNetworkList(ctx, list, pod); err != nil {
		return fmt.Errorf("DelNetworkList: %w", err)
	}
	if err := n.leftovers(e.network); err != nil {
		return fmt.Errorf("after DEL: %w", err)
	}
	// A runtime repeats DEL until it succeeds; the second one finds nothing.
	if err := cni.DelNetworkList(ctx, list, pod); err != nil {
		return fmt.Errorf("second DelNetworkList: %w", err)
	}
	return n.leftovers(e.network)
}

// load reads the example with Go's parser, its paths pointed into the node:
// flannel's subnet.env and scratch folder, host-local's store.
func (r runner) load(file string, n *node) (*libcni.NetworkConfigList, error) {
	text, err := os.ReadFile(filepath.Join(r.examples, file))
	if err != nil {
		return nil, err
	}
	var config map[string]interface{}
	if err := json.Unmarshal(text, &config); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
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
		} else if ipam, ok := plugin["ipam"].(map[string]interface{}); ok {
			ipam["dataDir"] = n.path("ipam")
		}
	}
	patched, err := json.Marshal(config)
	if err != nil {
		return nil, err
	}
	if isList {
		return libcni.ConfListFromBytes(patched)
	}
	single, err := libcni.ConfFromBytes(patched)
	if err != nil {
		return nil, err
	}
	return libcni.ConfListFromConf(single)
}

// podRuntime is what containerd passes for a Kubernetes pod: its arguments,
// and the port mapping and DNS settings of the capabilities the configs claim.
func podRuntime(containerID, netns string) *libcni.RuntimeConf {
	return &libcni.RuntimeConf{
		ContainerID: containerID,
		NetNS:       netns,
		IfName:      "eth0",
		Args: [][2]string{
			{"IgnoreUnknown", "1"},
			{"K8S_POD_NAMESPACE", "default"},
			{"K8S_POD_NAME", "web-0"},
		},
		CapabilityArgs: map[string]interface{}{
			"portMappings": []map[string]interface{}{{"hostPort": 8080, "containerPort": 80, "protocol": "tcp"}},
			"dns": map[string]interface{}{
				"servers":  []string{"10.96.0.10"},
				"searches": []string{"default.svc.cluster.local"},
			},
		},
	}
}

func checkAddress(result *types100.Result, e example) error {
	if len(result.IPs) != 1 {
		return fmt.Errorf("want one address, the result has %d", len(result.IPs))
	}
	_, subnet, _ := net.ParseCIDR(e.subnet)
	address := result.IPs[0].Address.IP.To4()
	if address == nil || !subnet.Contains(address) {
		return fmt.Errorf("address %v is not in %s", result.IPs[0].Address, e.subnet)
	}
	if host := int(address[3]); host < e.lowestHost {
		return fmt.Errorf("address %v: host .%d is below .%d", address, host, e.lowestHost)
	}
	return nil
}

// checkEndpoint looks at what reached HNS: the runtime's port mapping and
// the service network exempted from outbound NAT.
func checkEndpoint(n *node, name string, e example) error {
	endpoint, err := n.endpoint(name)
	if err != nil {
		return err
	}
	policies, _ := json.Marshal(endpoint["Policies"])
	text := string(policies)
	if !strings.Contains(text, `"PortMapping"`) {
		return fmt.Errorf("endpoint %s has no PortMapping policy: %s", name, text)
	}
	if !strings.Contains(text, `"OutBoundNAT"`) || !strings.Contains(text, `"`+e.serviceCIDR+`"`) {
		return fmt.Errorf("endpoint %s does not exempt %s from outbound NAT: %s", name, e.serviceCIDR, text)
	}
	return nil
}
