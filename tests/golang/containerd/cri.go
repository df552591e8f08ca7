package main

// What containerd's CRI does with go-cni's result, and what it keeps: the
// pod's addresses from the interface named eth0 only, IPv4 first by default
// (internal/cri/server/sandbox_run.go, setupPodNetwork and selectPodIPs);
// libcni's cached result, which CHECK and DEL get as prevResult.

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	gocni "github.com/containerd/go-cni"
)

// podIPs is the pod's IP and its additional IPs as CRI picks them, or CRI's
// error when eth0 has no address.
func podIPs(result *gocni.Result) (string, []string, error) {
	config, ok := result.Interfaces["eth0"]
	if !ok || len(config.IPConfigs) == 0 {
		names := []string{}
		for name, c := range result.Interfaces {
			names = append(names, fmt.Sprintf("%s (%d addresses)", name, len(c.IPConfigs)))
		}
		return "", nil, fmt.Errorf("failed to find network info for sandbox: no address on eth0; go-cni's interfaces: %s",
			strings.Join(names, ", "))
	}
	// The default preference, "ipv4": the first IPv4 address is the pod's
	// IP; the others, in the result's order, its additional IPs.
	var primary string
	var additional []string
	for _, ip := range config.IPConfigs {
		if primary == "" && ip.IP.To4() != nil {
			primary = ip.IP.String()
		} else {
			additional = append(additional, ip.IP.String())
		}
	}
	if primary == "" {
		primary, additional = additional[0], additional[1:]
	}
	return primary, additional, nil
}

// checkInterface: eth0 is the pod's HNS endpoint, in the pod's namespace,
// with the endpoint's MAC; what the runtime asked for reached the endpoint.
func checkInterface(n *node, result *gocni.Result, id, ns string, e example) error {
	if e.noEndpoint {
		return nil
	}
	name := id + "_" + e.network
	endpoint, err := n.endpoint(name)
	if err != nil {
		return err
	}
	// Results before CNI 0.3.0 name no interface: go-cni's eth0 is then
	// only the place it files the addresses under.
	if raw := result.Raw(); len(raw) > 0 && len(raw[0].Interfaces) > 0 {
		eth0 := result.Interfaces["eth0"]
		mac, _ := endpoint["MacAddress"].(string)
		if want := strings.ToLower(strings.ReplaceAll(mac, "-", ":")); eth0.Mac != want {
			return fmt.Errorf("eth0's MAC is %q; endpoint %s has %q", eth0.Mac, name, mac)
		}
		if eth0.Sandbox != ns {
			return fmt.Errorf("eth0's sandbox is %q; want the pod's namespace %s", eth0.Sandbox, ns)
		}
		// The endpoint's name stays in the result for an operator, as a
		// host interface, with no address filed under it.
		if host, ok := result.Interfaces[name]; !ok || host.Sandbox != "" || len(host.IPConfigs) != 0 {
			return fmt.Errorf("the result does not name endpoint %s as a host interface without addresses", name)
		}
	}
	policies, _ := json.Marshal(endpoint["Policies"])
	text := string(policies)
	if e.portMappings && !strings.Contains(text, `"PortMapping"`) {
		return fmt.Errorf("endpoint %s has no PortMapping policy: %s", name, text)
	}
	if e.serviceCIDR != "" && (!strings.Contains(text, `"OutBoundNAT"`) || !strings.Contains(text, `"`+e.serviceCIDR+`"`)) {
		return fmt.Errorf("endpoint %s does not exempt %s from outbound NAT: %s", name, e.serviceCIDR, text)
	}
	return nil
}

// checkCachedResult: the result libcni cached for the pod, which CHECK and
// DEL get as prevResult, files every address under eth0 too.
func checkCachedResult(n *node, e example, id string) error {
	text, err := os.ReadFile(n.path("cni-cache", "results", e.network+"-"+id+"-eth0"))
	if err != nil {
		return fmt.Errorf("libcni cached no result: %w", err)
	}
	var cached struct {
		Result struct {
			Interfaces []struct {
				Name string `json:"name"`
			} `json:"interfaces"`
			IPs []struct {
				Address   string `json:"address"`
				Interface *int   `json:"interface"`
			} `json:"ips"`
			IP4 *struct {
				IP string `json:"ip"`
			} `json:"ip4"` // before CNI 0.3.0
		} `json:"result"`
	}
	if err := json.Unmarshal(text, &cached); err != nil {
		return fmt.Errorf("libcni's cached result: %w", err)
	}
	result := cached.Result
	if len(result.IPs) == 0 && result.IP4 == nil {
		return fmt.Errorf("libcni's cached result has no address: %s", text)
	}
	for _, ip := range result.IPs {
		if ip.Interface == nil {
			continue
		}
		if *ip.Interface < 0 || *ip.Interface >= len(result.Interfaces) || result.Interfaces[*ip.Interface].Name != "eth0" {
			return fmt.Errorf("libcni's cached result files %s under an interface that is not eth0: %s", ip.Address, text)
		}
	}
	return nil
}

// declaresDNS: the config's plugin (a list's first) declares the dns
// capability, so libcni hands it the pod's dnsConfig from CRI.
func declaresDNS(config []byte) bool {
	var parsed map[string]interface{}
	if json.Unmarshal(config, &parsed) != nil {
		return false
	}
	if plugins, ok := parsed["plugins"].([]interface{}); ok && len(plugins) > 0 {
		parsed, _ = plugins[0].(map[string]interface{})
	}
	capabilities, _ := parsed["capabilities"].(map[string]interface{})
	return capabilities["dns"] == true
}

// checkSearch: the pod's DNS search list, on its HNS endpoint (Dns.Search)
// and in go-cni's result, is the pod's dnsConfig when the config declares
// the dns capability, and else what the example says a pod in "default"
// gets from the config (docs/configuration.md, "Pod DNS").
func checkSearch(n *node, result *gocni.Result, id string, e example, config []byte) error {
	if e.noEndpoint {
		return nil
	}
	want := e.search
	if declaresDNS(config) {
		want = podDNSConfig().Searches
	}
	endpoint, err := n.endpoint(id + "_" + e.network)
	if err != nil {
		return err
	}
	held := []string{}
	if dns, ok := endpoint["Dns"].(map[string]interface{}); ok {
		if search, ok := dns["Search"].([]interface{}); ok {
			for _, entry := range search {
				text, _ := entry.(string)
				held = append(held, text)
			}
		}
	}
	got := []string{}
	if len(result.DNS) > 0 {
		got = append(got, result.DNS[0].Search...)
	}
	if strings.Join(held, " ") != strings.Join(want, " ") {
		return fmt.Errorf("endpoint's DNS search list is %q; want %q", held, want)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		return fmt.Errorf("the result's DNS search list is %q; want %q", got, want)
	}
	return nil
}
