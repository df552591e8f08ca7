"""Values of the right JSON type that are still wrong: subnets and ranges
that cannot be, data dirs that are files, relative or climb with '..',
files host-local reads that are not files, port mappings and DNS the
runtime could send, prevResults that do not describe the attachment, and a
plugin delegating to itself."""

import copy
from typing import Callable, List, Optional

from base_configs import Base, for_command, text
from case import Case
from case_builder import derived_case

Edit = Callable[[dict], None]


def _set(path: str, value) -> Edit:
    """An edit that sets a dotted path ('ipam.ranges'), creating objects."""
    keys = path.split(".")

    def edit(config: dict) -> None:
        target = config
        for key in keys[:-1]:
            if not isinstance(target.get(key), dict):
                target[key] = {}
            target = target[key]
        target[keys[-1]] = value
    return edit


def _ipam_edits() -> List[tuple]:
    subnets = ["10.1.2.3/24", "10.1.2.0/31", "10.1.2.0/32", "10.1.2.0/33", "300.1.2.0/24", "10.1.2.0/-1",
               "0.0.0.0/0", "::/0", "fe80::/10", "fd00::/127", "10.1.2.0/24 ", " 10.1.2.0/24", "10.1.2.0",
               "10.1.2.0/24/24", "0x0a.1.2.0/24", "010.001.002.000/24", "::ffff:10.1.2.0/120", "10.1.2.0/024"]
    edits = [(f"ipam.subnet {s!r}", _set("ipam.subnet", s)) for s in subnets]
    edits += [(f"ipam.ranges subnet {s!r}", _set("ipam.ranges", [[{"subnet": s}]])) for s in subnets]
    ranges = {
        "no range sets": [],
        "an empty range set": [[]],
        "a range without subnet": [[{}]],
        "rangeStart outside the subnet": [[{"subnet": "10.1.2.0/24", "rangeStart": "10.1.3.5"}]],
        "rangeEnd outside the subnet": [[{"subnet": "10.1.2.0/24", "rangeEnd": "10.1.3.5"}]],
        "rangeStart after rangeEnd": [[{"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.50", "rangeEnd": "10.1.2.10"}]],
        "rangeStart of the other family": [[{"subnet": "10.1.2.0/24", "rangeStart": "fd00::5"}]],
        "rangeStart the network address": [[{"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.0"}]],
        "rangeEnd the broadcast address": [[{"subnet": "10.1.2.0/24", "rangeEnd": "10.1.2.255"}]],
        "one-address range that is the gateway": [[{"subnet": "10.1.2.0/24", "rangeStart": "10.1.2.1",
                                                    "rangeEnd": "10.1.2.1"}]],
        "gateway outside the subnet": [[{"subnet": "10.1.2.0/24", "gateway": "192.0.2.1"}]],
        "gateway of the other family": [[{"subnet": "10.1.2.0/24", "gateway": "fd00::1"}]],
        "overlapping ranges in a set": [[{"subnet": "10.1.2.0/24"}, {"subnet": "10.1.2.0/25"}]],
        "overlapping sets": [[{"subnet": "10.1.2.0/24"}], [{"subnet": "10.1.2.128/25"}]],
        "mixed families in a set": [[{"subnet": "10.1.2.0/24"}, {"subnet": "fd00::/64"}]],
        "two IPv4 sets": [[{"subnet": "10.1.2.0/24"}], [{"subnet": "10.1.3.0/24"}]],
        "a huge IPv6 set": [[{"subnet": "::/1"}]],
        "1000 range sets": [[{"subnet": f"10.{i // 256}.{i % 256}.0/24"}] for i in range(1000)],
        "ranges not nested": [{"subnet": "10.1.2.0/24"}],
    }
    edits += [(f"ipam.ranges: {label}", _set("ipam.ranges", value)) for label, value in ranges.items()]
    data_dirs = {
        "a file": "@ROOT@/fixtures/afile",
        "below a file": "@ROOT@/fixtures/afile/ipam",
        "a FIFO": "@ROOT@/fixtures/fifo",
        "relative": "hostile-rel/ipam",
        "dot": ".",
        "'..' components staying inside": "@ROOT@/ipam/../ipam-up/./x/..",
        "'..' climbing from the working directory": "../ipam-climb",
        "'~'": "~/ipam",
        "trailing slashes": "@ROOT@/ipam///",
        "with a newline": "@ROOT@/ipam\nx",
        "with an escaped NUL": "@ROOT@/ipam\u0000/x",
        "with control characters": "@ROOT@/ipam\u001b[31m",
        "4096 bytes": "@ROOT@/" + "d" * 4090,
        "deep": "@ROOT@/" + "/".join(["d"] * 300),
        "empty": "",
    }
    edits += [(f"ipam.dataDir {label}", _set("ipam.dataDir", value)) for label, value in data_dirs.items()]
    resolv = {"missing": "@ROOT@/nope/resolv.conf", "a directory": "@ROOT@/fixtures", "a FIFO": "@ROOT@/fixtures/fifo",
              "/dev/zero": "/dev/zero", "relative": "resolv.conf", "empty": ""}
    edits += [(f"ipam.resolvConf {label}", _set("ipam.resolvConf", value)) for label, value in resolv.items()]
    routes = {
        "dst not a prefix": [{"dst": "x"}],
        "gw not an address": [{"dst": "0.0.0.0/0", "gw": "x"}],
        "gw of the other family": [{"dst": "0.0.0.0/0", "gw": "fd00::1"}],
        "no dst": [{"gw": "10.1.2.1"}],
        "mtu negative": [{"dst": "0.0.0.0/0", "mtu": -1}],
        "mtu huge": [{"dst": "0.0.0.0/0", "mtu": 2 ** 70}],
        "scope a string": [{"dst": "0.0.0.0/0", "scope": "x"}],
        "table a float": [{"dst": "0.0.0.0/0", "table": 1.5}],
        "entries not objects": ["0.0.0.0/0"],
        "10000 routes": [{"dst": f"10.{i // 256}.{i % 256}.0/24"} for i in range(10000)],
    }
    edits += [(f"ipam.routes {label}", _set("ipam.routes", value)) for label, value in routes.items()]
    requested = ["10.244.1.1", "10.244.1.2", "10.244.1.255", "10.244.1.0", "10.244.2.5", "fd00::5", "x", "", "10.244.1.5/33"]
    edits += [(f"runtimeConfig.ips [{ip!r}]", _set("runtimeConfig.ips", [ip])) for ip in requested]
    edits += [(f"args.cni.ips [{ip!r}]", _set("args.cni.ips", [ip])) for ip in requested]
    edits += [
        ("runtimeConfig.ips: same address twice", _set("runtimeConfig.ips", ["10.244.1.5", "10.244.1.5"])),
        ("runtimeConfig.ipRanges: garbage", _set("runtimeConfig.ipRanges", [["10.1.2.0/24"]])),
        ("runtimeConfig.ipRanges: overlapping the config", _set("runtimeConfig.ipRanges", [[{"subnet": "10.244.1.0/25"}]])),
        ("runtimeConfig: an array", _set("runtimeConfig", [])),
        ("ipam.type win-bridge (delegating to itself)", _set("ipam.type", "win-bridge")),
    ]
    return edits


def _runtime_edits() -> List[tuple]:
    mappings = {
        "protocol sctp": [{"hostPort": 8080, "containerPort": 80, "protocol": "sctp"}],
        "protocol empty": [{"hostPort": 8080, "containerPort": 80, "protocol": ""}],
        "protocol 256": [{"hostPort": 8080, "containerPort": 80, "protocol": 256}],
        "protocol -6": [{"hostPort": 8080, "containerPort": 80, "protocol": -6}],
        "protocol 6.0": [{"hostPort": 8080, "containerPort": 80, "protocol": 6.0}],
        "protocol huge text": [{"hostPort": 8080, "containerPort": 80, "protocol": "9" * 40}],
        "protocol ' tcp'": [{"hostPort": 8080, "containerPort": 80, "protocol": " tcp"}],
        "protocol true": [{"hostPort": 8080, "containerPort": 80, "protocol": True}],
        "hostPort 0": [{"hostPort": 0, "containerPort": 80}],
        "hostPort -1": [{"hostPort": -1, "containerPort": 80}],
        "hostPort 65536": [{"hostPort": 65536, "containerPort": 80}],
        "hostPort 2^64": [{"hostPort": 2 ** 64, "containerPort": 80}],
        "hostPort 80.5": [{"hostPort": 80.5, "containerPort": 80}],
        "hostPort 1e300": [{"hostPort": 1e300, "containerPort": 80}],
        "hostPort as text": [{"hostPort": "8080", "containerPort": 80}],
        "containerPort missing": [{"hostPort": 8080}],
        "containerPort 0": [{"hostPort": 8080, "containerPort": 0}],
        "hostIP not an address": [{"hostPort": 8080, "containerPort": 80, "hostIP": "x"}],
        "hostIP a number": [{"hostPort": 8080, "containerPort": 80, "hostIP": 5}],
        "hostIP IPv6 any": [{"hostPort": 8080, "containerPort": 80, "hostIP": "::"}],
        "the same mapping twice": [{"hostPort": 8080, "containerPort": 80}] * 2,
        "the same host port, tcp and udp": [{"hostPort": 53, "containerPort": 53, "protocol": "tcp"},
                                            {"hostPort": 53, "containerPort": 53, "protocol": "udp"}],
        "entries not objects": [8080],
        "an object": {"hostPort": 8080},
        "500 mappings": [{"hostPort": 20000 + i, "containerPort": 80} for i in range(500)],
    }
    edits = [(f"runtimeConfig.portMappings {label}", _set("runtimeConfig.portMappings", value))
             for label, value in mappings.items()]
    dns = {
        "a string": "10.0.0.10",
        "an array": ["10.0.0.10"],
        "a number": 53,
        "servers a string": {"servers": "10.0.0.10"},
        "servers not addresses": {"servers": ["x", ""]},
        "servers numbers": {"servers": [1, 2]},
        "searches an object": {"searches": {"a": 1}},
        "options nested arrays": {"options": [["ndots:5"]]},
        "100000 searches": {"searches": ["s"] * 100000},
    }
    edits += [(f"runtimeConfig.dns {label}", _set("runtimeConfig.dns", value)) for label, value in dns.items()]
    edits += [
        ("dns.nameservers not addresses", _set("dns", {"nameservers": ["x", 5]})),
        ("policies: 20000 exceptions", _set("policies", [{"name": "EndpointPolicy", "value": {
            "Type": "OutBoundNAT", "Settings": {"Exceptions": [f"10.{i // 256}.{i % 256}.0/24" for i in range(20000)]}}}])),
        ("policies: unknown entry kind", _set("policies", [{"name": "Bogus", "value": {}}])),
        ("policies: value a string", _set("policies", [{"name": "EndpointPolicy", "value": "OutBoundNAT"}])),
        ("policies: Settings an array", _set("policies", [{"name": "EndpointPolicy",
                                                           "value": {"Type": "OutBoundNAT", "Settings": []}}])),
        ("policies: PortMapping with huge ports", _set("policies", [{"name": "EndpointPolicy", "value": {
            "Type": "PortMapping", "Settings": {"InternalPort": 70000, "ExternalPort": -1, "Protocol": 999}}}])),
        ("policies: ACL with garbage", _set("policies", [{"name": "EndpointPolicy", "value": {
            "Type": "ACL", "Settings": {"Action": "Maybe", "Direction": 5, "Priority": -1, "Protocols": "tcp,udp"}}}])),
        ("policies: SDNRoute with no prefix", _set("policies", [{"name": "EndpointPolicy", "value": {
            "Type": "SDNRoute", "Settings": {"NeedEncap": "yes"}}}])),
        ("additionalRoutes garbage", _set("additionalRoutes", [{"dst": "::/0", "gw": "10.0.0.1"}, {"gw": 5}])),
        ("optionalFlags an array", _set("optionalFlags", ["loopbackDSR"])),
        ("apiVersion 3", _set("apiVersion", 3)),
        ("apiVersion '2'", _set("apiVersion", "2")),
        ("networkWaitSeconds 1", _set("networkWaitSeconds", 1)),
        ("networkWaitSeconds NaN-like", _set("networkWaitSeconds", 1e308)),
        ("master not an adapter", _set("master", "NoSuchAdapter")),
        ("endpointMacPrefix garbage", _set("endpointMacPrefix", "zz-zz-zz")),
        ("ipMasqNetwork garbage", _set("ipMasqNetwork", "10.0.0.0/99")),
        ("logFile a number", _set("logFile", 5)),
        ("logFile below a file", _set("logFile", "@ROOT@/fixtures/afile/x.log")),
        ("logLevel garbage", _set("logLevel", ["debug"])),
        ("cniVersion unknown", _set("cniVersion", "9.9.9")),
        ("cniVersion 0.0.1", _set("cniVersion", "0.0.1")),
        ("cniVersion with a newline", _set("cniVersion", "1.0.0\n")),
        ("name 300 characters", _set("name", "n" * 300)),
        ("name CON", _set("name", "CON")),
        ("name with a slash", _set("name", "a/b")),
        ("name '..'", _set("name", "..")),
    ]
    return edits


def _prev_result_edits(prev: Optional[dict]) -> List[tuple]:
    prev = prev or {}
    garbage = {
        "an empty object": {},
        "another version": dict(prev, cniVersion="0.1.0"),
        "an unknown version": dict(prev, cniVersion="7.0.0"),
        "ips with a bad address": dict(prev, ips=[{"address": "x"}]),
        "ips with an address without prefix": dict(prev, ips=[{"address": "10.244.1.3"}]),
        "ips pointing at interface 99": dict(prev, ips=[dict(ip, interface=99) for ip in prev.get("ips", [])]),
        "ips pointing at interface -1": dict(prev, ips=[dict(ip, interface=-1) for ip in prev.get("ips", [])]),
        "ips pointing at interface 2^40": dict(prev, ips=[dict(ip, interface=2 ** 40) for ip in prev.get("ips", [])]),
        "an ip with a gateway of the other family": dict(prev, ips=[{"address": "10.244.1.3/24", "gateway": "fd00::1"}]),
        "no ips": dict(prev, ips=[]),
        "interfaces garbage": dict(prev, interfaces=[{"name": 5, "mac": []}]),
        "interfaces 1000 entries": dict(prev, interfaces=[{"name": f"if{i}"} for i in range(1000)]),
        "interface mac garbage": dict(prev, interfaces=[{"name": "x", "mac": "zz:zz"}]),
        "routes garbage": dict(prev, routes=[{"dst": "0.0.0.0/0", "gw": "x"}]),
        "dns a string": dict(prev, dns="10.0.0.10"),
        "dns nameservers garbage": dict(prev, dns={"nameservers": [1]}),
        "a 0.2.0 shape in a 1.1.0 config": {"ip4": {"ip": "10.244.1.3/24"}},
    }
    return [(f"prevResult {label}", _set("prevResult", value)) for label, value in garbage.items()]


# Where the data-dir cases legitimately write.
_ARTIFACTS = ["cwd/hostile-rel", "cwd/hostile-rel/*", "ipam-up", "ipam-up/*", "ipam-climb", "ipam-climb/*"]


def garbage_cases(bases: List[Base], prev_results: dict) -> List[Case]:
    cases = []
    for base in bases:
        for command in ("ADD", "DEL", "CHECK", "GC", "STATUS"):
            edits = _ipam_edits() + _runtime_edits()
            if command == "CHECK":
                edits += _prev_result_edits(prev_results.get(base.id))
            if command != "ADD":
                # ADD gets all; the others the ones that reach their own code.
                edits = [e for e in edits if e[0].startswith(("ipam.dataDir", "ipam.ranges", "ipam.subnet",
                                                              "prevResult", "runtimeConfig.portMappings an",
                                                              "name", "cniVersion", "ipam.type"))]
            for label, edit in edits:
                config = copy.deepcopy(for_command(base, command, prev_results.get(base.id)))
                edit(config)
                env = {"CNI_PATH": "@WBBIN@:@BIN@"} if "delegating to itself" in label else None
                cases.append(derived_case("garbage", base, command, label, text(config), env, artifacts=_ARTIFACTS))
    return cases
