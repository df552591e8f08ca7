package main

// The conf-examples a Go runtime loads here, each with the node its README
// line describes.

type example struct {
	file      string   // in conf-examples/
	node      []string // hnsctl arguments that make flanneld's node
	subnetEnv string   // flanneld's subnet.env (tests/fixtures/subnet-env), for flannel
	network   string   // the HNS network the pod joins
	subnet    string   // the pods' subnet
	// lowestHost is the first host number a pod may get: flanneld's bridge
	// endpoint holds .2 on host-gw nodes.
	lowestHost int
	// serviceCIDR is what the endpoint's OutBoundNAT policy must exempt.
	serviceCIDR string
}

var examples = []example{
	{
		file:      "flannel-host-gw.conflist",
		node:      []string{"node", "host-gw", "--subnet", "10.244.4.0/24", "--name", "cbr0"},
		subnetEnv: "host-gw-v4.env", network: "cbr0", subnet: "10.244.4.0/24",
		lowestHost: 3, serviceCIDR: "10.96.0.0/12",
	},
	{
		file:      "flannel-vxlan.conflist",
		node:      []string{"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "flannel.4096", "--vni", "4096"},
		subnetEnv: "vxlan-v4-crlf.env", network: "flannel.4096", subnet: "10.244.4.0/24",
		lowestHost: 2, serviceCIDR: "10.96.0.0/12",
	},
	{
		file:    "win-bridge-containerd.conf",
		node:    []string{"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", "cbr0"},
		network: "cbr0", subnet: "10.244.1.0/24",
		lowestHost: 2, serviceCIDR: "10.96.0.0/12",
	},
	{
		file:      "flannel-rke2.conflist",
		node:      []string{"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "flannel.4096", "--vni", "4096"},
		subnetEnv: "vxlan-v4-crlf.env", network: "flannel.4096", subnet: "10.244.4.0/24",
		lowestHost: 2, serviceCIDR: "10.43.0.0/16",
	},
	{
		file:    "win-bridge-containerd.conflist",
		node:    []string{"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", "cbr0"},
		network: "cbr0", subnet: "10.244.1.0/24",
		lowestHost: 2, serviceCIDR: "10.96.0.0/12",
	},
	{
		file:    "win-overlay-containerd.conf",
		node:    []string{"node", "vxlan", "--subnet", "10.244.3.0/24", "--name", "flannel.4096", "--vni", "4096"},
		network: "flannel.4096", subnet: "10.244.3.0/24",
		lowestHost: 2, serviceCIDR: "10.96.0.0/12",
	},
}
