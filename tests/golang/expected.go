package main

// What the conformance plugin's fixed ADD result holds (the golden result of
// tests/golden/results), in the terms of the newest result type this Go
// library has. Fields the library does not know (1.1.0's interface and route
// extras, with Debian's 1.1.x library) are simply not compared.

import (
	"net"

	"github.com/containernetworking/cni/pkg/types"
	types100 "github.com/containernetworking/cni/pkg/types/100"
)

func mustCIDR(text string) net.IPNet {
	ip, network, err := net.ParseCIDR(text)
	if err != nil {
		panic(err)
	}
	return net.IPNet{IP: ip, Mask: network.Mask}
}

func expectedResult() *types100.Result {
	eth0 := 0
	return &types100.Result{
		CNIVersion: types100.ImplementedSpecVersion,
		Interfaces: []*types100.Interface{
			{Name: "eth0", Mac: "0e:2a:5f:10:00:05", Sandbox: "/var/run/netns/cni-1234"},
			{Name: "cbr0", Mac: "00:15:5d:00:00:01"},
		},
		IPs: []*types100.IPConfig{
			{Interface: &eth0, Address: mustCIDR("10.244.1.5/24"), Gateway: net.ParseIP("10.244.1.1")},
			{Interface: &eth0, Address: mustCIDR("fd00:10:244:1::5/64"), Gateway: net.ParseIP("fd00:10:244:1::1")},
		},
		Routes: []*types.Route{
			{Dst: mustCIDR("0.0.0.0/0"), GW: net.ParseIP("10.244.1.1")},
			{Dst: mustCIDR("fd00:96::/108"), GW: net.ParseIP("fd00:10:244:1::1")},
		},
		DNS: types.DNS{
			Nameservers: []string{"10.96.0.10", "fd00:96::a"},
			Domain:      "cluster.local",
			Search:      []string{"default.svc.cluster.local", "svc.cluster.local"},
			Options:     []string{"ndots:5", "timeout:1"},
		},
	}
}
