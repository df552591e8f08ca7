package main

// Every config of conf-examples/, each with the node its README line
// describes, and what containerd must find after setting up a pod with it.

type example struct {
	file string // in conf-examples/; for an inline config, the file name it is saved under
	text string // the config itself when it is not one of conf-examples/
	// versions, when set, runs the config at each of these cniVersions
	// (the file's own when empty).
	versions  []string
	node      []string // hnsctl arguments that make flanneld's node; none: the plugin makes its network
	subnetEnv string   // flanneld's subnet.env (tests/fixtures/subnet-env), for flannel
	network   string   // the HNS network the pod joins
	subnets   []string // the pods' subnets, IPv4 first for a dual-stack pod
	// lowestHost is the first host number a pod may get: flanneld's bridge
	// endpoint holds .2 on host-gw nodes.
	lowestHost int
	// taken are addresses no pod may get (HNS's gateway and the host's vNIC
	// where HNS assigns the pods' addresses).
	taken []string
	// serviceCIDR, when set, is what the endpoint's OutBoundNAT policy must exempt.
	serviceCIDR string
	// portMappings: the config claims the capability, so containerd's
	// port mapping must reach the endpoint.
	portMappings bool
	// plugins the node's bin folder holds besides ours, by the name a
	// config's "type" gives them: win-bridge installed as sdnbridge.exe.
	aliases map[string]string
	// noEndpoint: the plugin makes no HNS endpoint (host-local alone).
	noEndpoint bool
	// refused, when set, is what the error says: a config containerd cannot
	// run, which must fail clean.
	refused string
	// search: the DNS search list a pod in namespace "default" gets when
	// the config does not declare the dns capability (with it, the pod's
	// dnsConfig is its list).
	search []string
}

var hostGW = []string{"node", "host-gw", "--subnet", "10.244.1.0/24", "--name", "cbr0"}
var vxlan = []string{"node", "vxlan", "--subnet", "10.244.3.0/24", "--name", "flannel.4096", "--vni", "4096"}

var examples = []example{
	{
		file:      "flannel-host-gw.conflist",
		node:      []string{"node", "host-gw", "--subnet", "10.244.4.0/24", "--name", "cbr0"},
		subnetEnv: "host-gw-v4.env", network: "cbr0", subnets: []string{"10.244.4.0/24"},
		lowestHost: 3, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file:      "flannel-vxlan.conflist",
		node:      []string{"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "flannel.4096", "--vni", "4096"},
		subnetEnv: "vxlan-v4-crlf.env", network: "flannel.4096", subnets: []string{"10.244.4.0/24"},
		lowestHost: 2, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file:      "flannel-rke2.conflist",
		node:      []string{"node", "vxlan", "--subnet", "10.244.4.0/24", "--name", "flannel.4096", "--vni", "4096"},
		subnetEnv: "vxlan-v4-crlf.env", network: "flannel.4096", subnets: []string{"10.244.4.0/24"},
		lowestHost: 2, serviceCIDR: "10.43.0.0/16", portMappings: true,
	},
	{
		file: "win-bridge-containerd.conf", node: hostGW,
		// Every result version Debian's libcni (containerd 1.7's) reads.
		versions: []string{"0.1.0", "0.2.0", "0.3.0", "0.3.1", "0.4.0", "1.0.0"},
		network:  "cbr0", subnets: []string{"10.244.1.0/24"},
		lowestHost: 2, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file: "win-bridge-containerd.conflist", node: hostGW,
		network: "cbr0", subnets: []string{"10.244.1.0/24"},
		lowestHost: 2, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		// HNS v1 is dockershim's API; containerd's CNI_NETNS is an HCN
		// namespace, which v1 cannot attach to.
		file: "win-bridge-dockershim.conf", node: hostGW, network: "cbr0",
		refused: "which is for dockershim",
	},
	{
		file:    "win-bridge-dualstack.conf",
		network: "l2bridge-ds", subnets: []string{"10.244.2.0/24", "fd00:10:244:2::/64"},
		lowestHost: 3, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file:    "win-bridge-legacy-wincni.conf",
		node:    []string{"node", "host-gw", "--subnet", "10.10.187.64/26", "--name", "l2bridge"},
		aliases: map[string]string{"wincni.exe": "win-bridge"},
		network: "l2bridge", subnets: []string{"10.10.187.64/26"},
		taken: []string{"10.10.187.65", "10.10.187.66"}, serviceCIDR: "10.10.0.0/16",
	},
	{
		file: "win-bridge-sdnbridge.conf", node: hostGW,
		aliases: map[string]string{"sdnbridge": "win-bridge"},
		network: "cbr0", subnets: []string{"10.244.1.0/24"},
		lowestHost: 3, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file:    "win-bridge-standalone.conf",
		network: "l2bridge", subnets: []string{"10.10.187.64/26"},
		taken: []string{"10.10.187.65", "10.10.187.66"}, serviceCIDR: "10.10.0.0/16", portMappings: true,
	},
	{
		file: "win-overlay-containerd.conf", node: vxlan,
		network: "flannel.4096", subnets: []string{"10.244.3.0/24"},
		lowestHost: 2, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		file: "win-overlay-dockershim.conf", node: vxlan, network: "flannel.4096",
		refused: "which is for dockershim",
	},
	{
		file:    "win-overlay-openshift.conf",
		node:    []string{"node", "vxlan", "--subnet", "10.132.2.0/24", "--name", "OVNKubernetesHNSNetwork", "--vni", "4096"},
		network: "OVNKubernetesHNSNetwork", subnets: []string{"10.132.2.0/24"},
		lowestHost: 2, portMappings: true,
	},
	{
		file:    "win-overlay-standalone.conf",
		network: "vxlan-pods", subnets: []string{"10.244.7.0/24"},
		lowestHost: 2, serviceCIDR: "10.96.0.0/12", portMappings: true,
	},
	{
		// A config without the dns capability, as operators' older ones
		// are: containerd hands over no dnsConfig, only the pod's namespace
		// in CNI_ARGS, and the config's search list gets the pod's entries.
		file: "win-bridge-no-dns-capability.conf",
		text: `{"cniVersion":"1.0.0","name":"cbr0","type":"win-bridge","apiVersion":2,
		        "capabilities":{"portMappings":true},
		        "dns":{"nameservers":["10.96.0.10"],"search":["svc.cluster.local"]},
		        "ipam":{"type":"host-local","subnet":"10.244.1.0/24"}}`,
		node: hostGW, network: "cbr0", subnets: []string{"10.244.1.0/24"}, lowestHost: 3, portMappings: true,
		search: []string{"default.svc.cluster.local", "svc.cluster.local", "cluster.local"},
	},
	{
		// host-local as the network's only plugin: its result has no
		// interface, and the runtime files its address under eth0.
		file: "host-local-alone.conflist",
		text: `{"cniVersion":"1.0.0","name":"ipam-only","plugins":[{"type":"host-local",
		        "ipam":{"type":"host-local","ranges":[[{"subnet":"10.250.0.0/24"}]]}}]}`,
		network: "ipam-only", subnets: []string{"10.250.0.0/24"}, lowestHost: 2, noEndpoint: true,
	},
}
