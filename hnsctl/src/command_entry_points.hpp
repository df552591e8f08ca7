#pragma once
// Every command's entry point; commands.cpp lists them.

#include "command.hpp"

namespace wincni::hnsctl {

int network_list(Context& context, const Args& args);
int network_show(Context& context, const Args& args);
int network_delete(Context& context, const Args& args);
int endpoint_list(Context& context, const Args& args);
int endpoint_show(Context& context, const Args& args);
int endpoint_delete(Context& context, const Args& args);
int namespace_list(Context& context, const Args& args);
int load_balancer_list(Context& context, const Args& args);
int load_balancer_show(Context& context, const Args& args);
int namespace_create(Context& context, const Args& args);
int namespace_delete(Context& context, const Args& args);
int container_start(Context& context, const Args& args);
int container_stop(Context& context, const Args& args);
int container_show(Context& context, const Args& args);
int node_host_gw(Context& context, const Args& args);
int node_vxlan(Context& context, const Args& args);
int version_show(Context& context, const Args& args);
int caps_show(Context& context, const Args& args);
int explain_add(Context& context, const Args& args);
int audit_run(Context& context, const Args& args);
int doctor_run(Context& context, const Args& args);
int collect_run(Context& context, const Args& args);
int source_vip_reserve(Context& context, const Args& args);

}  // namespace wincni::hnsctl
