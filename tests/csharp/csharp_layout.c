// SPDX-License-Identifier: MIT
/* The C side of the C# binding's layout check: for every struct that
 * clients/csharp/NavalClient.cs mirrors, its size and the offset of each
 * field, named as the C# declarations name them ("Struct size N",
 * "Struct.Field OFFSET"). BindingCheck.cs prints the same from the .NET
 * marshaller; tests/csharp/csharp_binding.sh compares the two, so a field
 * added, moved or retyped on either side fails. */
#include <stddef.h>
#include <stdio.h>

#include "naval_client.h"

#define SIZE(cs, c) printf(#cs " size %zu\n", sizeof(c))
#define AT(cs, field, c, member, extra) printf(#cs "." #field " %zu\n", offsetof(c, member) + (extra))
#define FIELD(cs, field, c, member) AT(cs, field, c, member, 0)
/* An array member: C# declares it with [MarshalAs(ByValArray, SizeConst = N)]. */
#define COUNT(cs, field, c, member) \
    printf(#cs "." #field " count %zu\n", sizeof(((c*)0)->member) / sizeof(((c*)0)->member[0]))

int main(void) {
    SIZE(NvError, nv_error);
    FIELD(NvError, Code, nv_error, code);
    FIELD(NvError, Status, nv_error, status);
    FIELD(NvError, Message, nv_error, message);
    COUNT(NvError, Message, nv_error, message);

    SIZE(NvcOptions, nvc_options);
    FIELD(NvcOptions, SnapshotUrl, nvc_options, snapshot_url);
    FIELD(NvcOptions, CommandUrl, nvc_options, command_url);
    FIELD(NvcOptions, RequestTimeoutMs, nvc_options, request_timeout_ms);
    FIELD(NvcOptions, MaxSnapshotBytes, nvc_options, max_snapshot_bytes);
    FIELD(NvcOptions, QueueDepth, nvc_options, queue_depth);
    FIELD(NvcOptions, AdminToken, nvc_options, admin_token);

    /* The token's 16 bytes as two 8-byte halves. */
    SIZE(SpawnedVessel, nvc_vessel);
    FIELD(SpawnedVessel, Id, nvc_vessel, id);
    FIELD(SpawnedVessel, TokenLow, nvc_vessel, token);
    AT(SpawnedVessel, TokenHigh, nvc_vessel, token, 8);
    FIELD(SpawnedVessel, X, nvc_vessel, x);
    FIELD(SpawnedVessel, Z, nvc_vessel, z);

    SIZE(SnapshotCounts, nvc_snapshot_counts);
    FIELD(SnapshotCounts, Received, nvc_snapshot_counts, received);
    FIELD(SnapshotCounts, Dropped, nvc_snapshot_counts, dropped);
    FIELD(SnapshotCounts, Undecodable, nvc_snapshot_counts, undecodable);
    FIELD(SnapshotCounts, AwaitingKeyframe, nvc_snapshot_counts, awaiting_keyframe);

    /* The arrays as one C# field per element. */
    SIZE(VesselState, proto_vessel);
    FIELD(VesselState, Id, proto_vessel, id);
    FIELD(VesselState, Type, proto_vessel, type);
    FIELD(VesselState, Flags, proto_vessel, flags);
    AT(VesselState, X, proto_vessel, position, 0);
    AT(VesselState, Y, proto_vessel, position, 8);
    AT(VesselState, Z, proto_vessel, position, 16);
    AT(VesselState, Qx, proto_vessel, orientation, 0);
    AT(VesselState, Qy, proto_vessel, orientation, 4);
    AT(VesselState, Qz, proto_vessel, orientation, 8);
    AT(VesselState, Qw, proto_vessel, orientation, 12);
    AT(VesselState, Vx, proto_vessel, velocity, 0);
    AT(VesselState, Vy, proto_vessel, velocity, 4);
    AT(VesselState, Vz, proto_vessel, velocity, 8);
    AT(VesselState, Wx, proto_vessel, angular_velocity, 0);
    AT(VesselState, Wy, proto_vessel, angular_velocity, 4);
    AT(VesselState, Wz, proto_vessel, angular_velocity, 8);

    SIZE(ProtoTickStats, proto_tick_stats);
    FIELD(ProtoTickStats, StepMs, proto_tick_stats, step_ms);
    FIELD(ProtoTickStats, WaterMs, proto_tick_stats, water_ms);
    FIELD(ProtoTickStats, VertexMs, proto_tick_stats, vertex_ms);
    FIELD(ProtoTickStats, TriangleMs, proto_tick_stats, triangle_ms);
    FIELD(ProtoTickStats, IntegrateMs, proto_tick_stats, integrate_ms);
    FIELD(ProtoTickStats, SnapshotMs, proto_tick_stats, snapshot_ms);
    FIELD(ProtoTickStats, VesselCount, proto_tick_stats, vessel_count);
    FIELD(ProtoTickStats, Subscribers, proto_tick_stats, subscribers);
    FIELD(ProtoTickStats, Overruns, proto_tick_stats, overruns);
    FIELD(ProtoTickStats, LodMs, proto_tick_stats, lod_ms);

    SIZE(ProtoSnapshot, proto_snapshot);
    FIELD(ProtoSnapshot, Tick, proto_snapshot, tick);
    FIELD(ProtoSnapshot, SimTime, proto_snapshot, sim_time);
    FIELD(ProtoSnapshot, SendTimeNs, proto_snapshot, send_time_ns);
    FIELD(ProtoSnapshot, Stats, proto_snapshot, stats);
    FIELD(ProtoSnapshot, Vessels, proto_snapshot, vessels);
    FIELD(ProtoSnapshot, VesselCount, proto_snapshot, vessel_count);
    FIELD(ProtoSnapshot, VesselCapacity, proto_snapshot, vessel_capacity);
    FIELD(ProtoSnapshot, Contacts, proto_snapshot, contacts);
    FIELD(ProtoSnapshot, ContactCount, proto_snapshot, contact_count);
    FIELD(ProtoSnapshot, ContactCapacity, proto_snapshot, contact_capacity);
    FIELD(ProtoSnapshot, Damage, proto_snapshot, damage);
    FIELD(ProtoSnapshot, DamageCount, proto_snapshot, damage_count);
    FIELD(ProtoSnapshot, DamageCapacity, proto_snapshot, damage_capacity);
    FIELD(ProtoSnapshot, DamageEvents, proto_snapshot, damage_events);
    FIELD(ProtoSnapshot, DamageEventCount, proto_snapshot, damage_event_count);
    FIELD(ProtoSnapshot, DamageEventCapacity, proto_snapshot, damage_event_capacity);

    SIZE(ProtoOceanSpec, proto_ocean_spec);
    FIELD(ProtoOceanSpec, Spectrum, proto_ocean_spec, spectrum);
    FIELD(ProtoOceanSpec, Spreading, proto_ocean_spec, spreading);
    FIELD(ProtoOceanSpec, Gravity, proto_ocean_spec, gravity);
    FIELD(ProtoOceanSpec, WindSpeed, proto_ocean_spec, wind_speed);
    FIELD(ProtoOceanSpec, WindDirection, proto_ocean_spec, wind_direction);
    FIELD(ProtoOceanSpec, Fetch, proto_ocean_spec, fetch);
    FIELD(ProtoOceanSpec, Depth, proto_ocean_spec, depth);
    FIELD(ProtoOceanSpec, Gamma, proto_ocean_spec, gamma);
    FIELD(ProtoOceanSpec, Swell, proto_ocean_spec, swell);
    FIELD(ProtoOceanSpec, Choppiness, proto_ocean_spec, choppiness);
    FIELD(ProtoOceanSpec, Beaufort, proto_ocean_spec, beaufort);
    FIELD(ProtoOceanSpec, HsTarget, proto_ocean_spec, hs_target);
    FIELD(ProtoOceanSpec, Size, proto_ocean_spec, size);
    FIELD(ProtoOceanSpec, CascadeRatio, proto_ocean_spec, cascade_ratio);
    FIELD(ProtoOceanSpec, Cascades, proto_ocean_spec, cascades);
    FIELD(ProtoOceanSpec, Resolution, proto_ocean_spec, resolution);
    FIELD(ProtoOceanSpec, ResolutionZ, proto_ocean_spec, resolution_z);
    FIELD(ProtoOceanSpec, RepeatPeriod, proto_ocean_spec, repeat_period);
    FIELD(ProtoOceanSpec, MinWavelength, proto_ocean_spec, min_wavelength);
    FIELD(ProtoOceanSpec, Seed, proto_ocean_spec, seed);
    FIELD(ProtoOceanSpec, QueryIterations, proto_ocean_spec, query_iterations);
    FIELD(ProtoOceanSpec, QueryTolerance, proto_ocean_spec, query_tolerance);
    FIELD(ProtoOceanSpec, SurfaceGrid, proto_ocean_spec, surface_grid);
    FIELD(ProtoOceanSpec, PatchSizes, proto_ocean_spec, patch_sizes);
    FIELD(ProtoOceanSpec, Time, proto_ocean_spec, time);
    FIELD(ProtoOceanSpec, Tp, proto_ocean_spec, tp);
    COUNT(ProtoOceanSpec, PatchSizes, proto_ocean_spec, patch_sizes);

    SIZE(ProtoVesselType, proto_vessel_type);
    FIELD(ProtoVesselType, Type, proto_vessel_type, type);
    FIELD(ProtoVesselType, Name, proto_vessel_type, name);
    FIELD(ProtoVesselType, Mass, proto_vessel_type, mass);
    FIELD(ProtoVesselType, BoundsMin, proto_vessel_type, bounds_min);
    FIELD(ProtoVesselType, BoundsMax, proto_vessel_type, bounds_max);
    FIELD(ProtoVesselType, VertexCount, proto_vessel_type, vertex_count);
    FIELD(ProtoVesselType, TriangleCount, proto_vessel_type, triangle_count);
    FIELD(ProtoVesselType, CompartmentCount, proto_vessel_type, compartment_count);
    FIELD(ProtoVesselType, CompartmentVolumes, proto_vessel_type, compartment_volumes);
    FIELD(ProtoVesselType, PumpRate, proto_vessel_type, pump_rate);
    COUNT(ProtoVesselType, Name, proto_vessel_type, name);
    COUNT(ProtoVesselType, BoundsMin, proto_vessel_type, bounds_min);
    COUNT(ProtoVesselType, BoundsMax, proto_vessel_type, bounds_max);
    COUNT(ProtoVesselType, CompartmentVolumes, proto_vessel_type, compartment_volumes);

    SIZE(ProtoTerrainInfo, proto_terrain_info);
    FIELD(ProtoTerrainInfo, Present, proto_terrain_info, present);
    FIELD(ProtoTerrainInfo, OriginX, proto_terrain_info, origin_x);
    FIELD(ProtoTerrainInfo, OriginZ, proto_terrain_info, origin_z);
    FIELD(ProtoTerrainInfo, CellSize, proto_terrain_info, cell_size);
    FIELD(ProtoTerrainInfo, Nx, proto_terrain_info, nx);
    FIELD(ProtoTerrainInfo, Nz, proto_terrain_info, nz);
    FIELD(ProtoTerrainInfo, MinElevation, proto_terrain_info, min_elevation);
    FIELD(ProtoTerrainInfo, MaxElevation, proto_terrain_info, max_elevation);
    FIELD(ProtoTerrainInfo, Heights, proto_terrain_info, heights);
    FIELD(ProtoTerrainInfo, HeightCapacity, proto_terrain_info, height_capacity);

    SIZE(ProtoWorldInfo, proto_world_info);
    FIELD(ProtoWorldInfo, ProtocolVersion, proto_world_info, protocol_version);
    FIELD(ProtoWorldInfo, ServerName, proto_world_info, server_name);
    FIELD(ProtoWorldInfo, TickHz, proto_world_info, tick_hz);
    FIELD(ProtoWorldInfo, Tick, proto_world_info, tick);
    FIELD(ProtoWorldInfo, SimTime, proto_world_info, sim_time);
    FIELD(ProtoWorldInfo, Gravity, proto_world_info, gravity);
    FIELD(ProtoWorldInfo, WaterDensity, proto_world_info, water_density);
    FIELD(ProtoWorldInfo, HasOcean, proto_world_info, has_ocean);
    FIELD(ProtoWorldInfo, Ocean, proto_world_info, ocean);
    FIELD(ProtoWorldInfo, Types, proto_world_info, types);
    FIELD(ProtoWorldInfo, TypeCount, proto_world_info, type_count);
    FIELD(ProtoWorldInfo, TypeCapacity, proto_world_info, type_capacity);
    FIELD(ProtoWorldInfo, Terrain, proto_world_info, terrain);
    FIELD(ProtoWorldInfo, Structures, proto_world_info, structures);
    FIELD(ProtoWorldInfo, StructureCount, proto_world_info, structure_count);
    FIELD(ProtoWorldInfo, StructureCapacity, proto_world_info, structure_capacity);
    COUNT(ProtoWorldInfo, ServerName, proto_world_info, server_name);
    return 0;
}
