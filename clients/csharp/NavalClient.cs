// SPDX-License-Identifier: MIT
// A C# binding of the naval client library (clients/naval_client.h) through
// P/Invoke, for Mono, .NET and Unity: connect to a naval-server, read the
// vessel types, spawn a boat, steer it, read snapshots, despawn.
//
//   using (var client = NavalClient.Connect("tcp://127.0.0.1:7700", "tcp://127.0.0.1:7701"))
//   {
//       SpawnedVessel boat = client.Spawn("skiff", 0, 0, 0);
//       client.Control(boat, 1.0f, 0.3f);
//       VesselState s;
//       if (client.PollSnapshot(100) && client.TryGetVessel(boat.Id, out s)) { ... s.X, s.Z ... }
//       client.Despawn(boat);
//   }
//
// The native library is libnaval_client.so (target naval_client_shared), found
// by the name "naval_client" on the library path (Unity: a native plugin).
// A NavalClient is used by one thread at a time (in Unity the main thread);
// the library's own receive thread queues snapshots in between. Failures
// throw NavalException with the library's code and message.
//
// The structs below mirror naval_client.h and proto/proto.h field for field;
// tests/csharp/BindingCheck.cs compares their sizes and offsets with the C
// compiler's, so a change on either side fails the build's tests.
using System;
using System.Runtime.InteropServices;
using System.Text;

namespace Naval
{
    /// <summary>naval/nv_error.h's nv_code: what a program can act on.</summary>
    public enum NavalErrorCode
    {
        Ok = 0,
        Invalid,      // a bad argument, option or value
        NotFound,     // no such vessel or vessel type
        Limit,        // a limit reached (vessels per client, sizes)
        NoMemory,
        Io,
        State,        // not possible now (no such socket)
        Protocol,     // the peer sent something that does not decode
        Connect,      // the URL cannot be reached
        TimedOut,     // no answer or snapshot in time
        Closed,       // the client is closing
        Refused,      // the server refused: Status holds its proto_status
        Internal,
    }

    /// <summary>A failed call: the library's code, the server's status when it refused, and why.</summary>
    public sealed class NavalException : Exception
    {
        public NavalErrorCode Code { get; private set; }
        /// <summary>With Code Refused: the server's proto_status (1 bad_request, 2 unauthorized, 3 not_found, 4 limit_exceeded, ...).</summary>
        public int Status { get; private set; }

        public NavalException(NavalErrorCode code, int status, string message) : base(message)
        {
            Code = code;
            Status = status;
        }
    }

    /// <summary>
    /// A vessel this client spawned: its id, the token that steers it (kept
    /// inside, opaque) and where the server placed it (the nearest free water
    /// to the request). Layout of nvc_vessel: explicit, because its 16-byte
    /// token sits at offset 4 with byte alignment, which two 8-byte halves
    /// could not do in a sequential struct.
    /// </summary>
    [StructLayout(LayoutKind.Explicit, Size = 40)]
    public struct SpawnedVessel
    {
        [FieldOffset(0)] public uint Id;
        [FieldOffset(4)] internal ulong TokenLow;
        [FieldOffset(12)] internal ulong TokenHigh;
        /// <summary>Metres, world frame (+y up, right-handed).</summary>
        [FieldOffset(24)] public double X;
        [FieldOffset(32)] public double Z;
    }

    /// <summary>
    /// One vessel of a snapshot: proto_vessel (72 bytes, the wire's VesselState).
    /// World frame: right-handed, +y up; the body frame has +x at the bow,
    /// +y up, +z to starboard (NavalAxes converts both to Unity's).
    /// </summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct VesselState
    {
        public uint Id;
        public ushort Type;      // vessel type index (NavalClient.GetTypeNames)
        public ushort Flags;     // VesselFlags
        public double X, Y, Z;   // CG, m
        public float Qx, Qy, Qz, Qw;  // unit quaternion body -> world
        public float Vx, Vy, Vz;      // CG velocity, m/s
        public float Wx, Wy, Wz;      // angular velocity, world frame, rad/s

        /// <summary>The bow's direction in radians about +y from +x toward -z (as spawn headings).</summary>
        public double Heading
        {
            get { return NavalAxes.Heading(Qx, Qy, Qz, Qw); }
        }

        /// <summary>Horizontal speed, m/s.</summary>
        public double Speed
        {
            get { return Math.Sqrt((double)Vx * Vx + (double)Vz * Vz); }
        }
    }

    /// <summary>proto_vessel's flags (PROTO_VESSEL_*).</summary>
    [Flags]
    public enum VesselFlags : ushort
    {
        Frozen = 1 << 0,
        Player = 1 << 1,
        Grounded = 1 << 4,
        Capsized = 1 << 5,
    }

    /// <summary>nvc_snapshot_counts: what the receive queue saw.</summary>
    [StructLayout(LayoutKind.Sequential)]
    public struct SnapshotCounts
    {
        public ulong Received;          // messages from the server
        public ulong Dropped;           // overwritten in the queue before being read
        public ulong Undecodable;
        public ulong AwaitingKeyframe;  // compact deltas before a keyframe
    }

    /// <summary>
    /// The protocol's axes (right-handed, +y up; body +x bow, +z starboard)
    /// to Unity's (left-handed, +y up; a model's +z forward, +x right):
    /// positions mirror z; a rotation is mirrored the same way and then
    /// turned so that the model's forward (+z) is the body's bow (+x).
    /// Plain numbers so that it is tested without Unity.
    /// </summary>
    public static class NavalAxes
    {
        /// <summary>World position (x, y, z) in Unity's axes.</summary>
        public static void ToUnityPosition(double x, double y, double z, out float ux, out float uy, out float uz)
        {
            ux = (float)x;
            uy = (float)y;
            uz = (float)(-z);
        }

        /// <summary>
        /// The Unity rotation (x, y, z, w) that poses a model (forward +z,
        /// up +y, right +x) as the vessel whose body -> world quaternion is q.
        /// Mirroring z turns the rotation's axis into (-x, -y, z) for the same
        /// angle; the model's frame is the body's after a quarter turn about
        /// +y (the model's forward +z onto the bow +x), so the result is mirror(q) * (0, sin 45, 0, cos 45).
        /// </summary>
        public static void ToUnityRotation(float qx, float qy, float qz, float qw,
                                           out float ux, out float uy, out float uz, out float uw)
        {
            double ax = -qx, ay = -qy, az = qz, aw = qw;  // mirror(q)
            double s = Math.Sqrt(0.5);                      // b = (0, s, 0, s)
            // The Hamilton product a * b (b is applied first, as Unity's operator *):
            //   x = aw*bx + ax*bw + ay*bz - az*by,  y = aw*by - ax*bz + ay*bw + az*bx,
            //   z = aw*bz + ax*by - ay*bx + az*bw,  w = aw*bw - ax*bx - ay*by - az*bz.
            ux = (float)((ax - az) * s);
            uy = (float)((aw + ay) * s);
            uz = (float)((ax + az) * s);
            uw = (float)((aw - ay) * s);
        }

        /// <summary>Heading of the bow (body +x) in radians about +y from +x toward -z, in (-pi, pi].</summary>
        public static double Heading(float qx, float qy, float qz, float qw)
        {
            // The bow in the world: the first column of q's rotation matrix.
            double bx = 1 - 2.0 * ((double)qy * qy + (double)qz * qz);
            double bz = 2.0 * ((double)qx * qz - (double)qw * qy);
            return Math.Atan2(-bz, bx);
        }
    }

    /// <summary>A connection to a naval-server: snapshots and requests.</summary>
    public sealed class NavalClient : IDisposable
    {
        IntPtr client;
        // Decoder-owned C structs live in unmanaged memory, so the library
        // reuses their arrays from one poll to the next (proto.h's rule).
        IntPtr snapshot;
        IntPtr worldInfo;
        IntPtr error;  // one nv_error for every call (a client is used by one thread)
        bool hasSnapshot;
        ulong tick;
        double simTime;
        uint vesselCount;
        IntPtr vessels;

        static readonly int VesselSize = Marshal.SizeOf(typeof(VesselState));
        static readonly int TickOffset = Marshal.OffsetOf(typeof(Native.ProtoSnapshot), "Tick").ToInt32();
        static readonly int SimTimeOffset = Marshal.OffsetOf(typeof(Native.ProtoSnapshot), "SimTime").ToInt32();
        static readonly int VesselsOffset = Marshal.OffsetOf(typeof(Native.ProtoSnapshot), "Vessels").ToInt32();
        static readonly int VesselCountOffset = Marshal.OffsetOf(typeof(Native.ProtoSnapshot), "VesselCount").ToInt32();

        NavalClient() { }

        /// <summary>
        /// Dials the snapshot URL (e.g. tcp://HOST:7700 or ws://HOST:8080/ws/snapshots)
        /// and the command URL (tcp://HOST:7701, ws://HOST:8080/ws/commands);
        /// either may be null, not both. Throws NavalException (Connect) with
        /// the reason when one cannot be reached.
        /// </summary>
        public static NavalClient Connect(string snapshotUrl, string commandUrl, int requestTimeoutMs = 2000)
        {
            if (snapshotUrl == null && commandUrl == null)
                throw new ArgumentException("Connect: give a snapshot URL, a command URL or both");
            if (requestTimeoutMs <= 0)
                throw new ArgumentOutOfRangeException("requestTimeoutMs", requestTimeoutMs, "must be > 0 ms");
            var c = new NavalClient();
            IntPtr snap = IntPtr.Zero, cmd = IntPtr.Zero;
            try
            {
                c.error = AllocZeroed(Marshal.SizeOf(typeof(Native.NvError)));
                c.snapshot = AllocZeroed(Marshal.SizeOf(typeof(Native.ProtoSnapshot)));
                c.worldInfo = AllocZeroed(Marshal.SizeOf(typeof(Native.ProtoWorldInfo)));
                Native.NvcOptions o;
                Native.nvc_options_default(out o);
                snap = Utf8(snapshotUrl);
                cmd = Utf8(commandUrl);
                o.SnapshotUrl = snap;
                o.CommandUrl = cmd;
                o.RequestTimeoutMs = requestTimeoutMs;
                c.Check(Native.nvc_connect(out c.client, ref o, c.error), "connect");
                return c;
            }
            catch
            {
                c.Dispose();
                throw;
            }
            finally
            {
                // nvc_connect copies what it keeps of the options.
                if (snap != IntPtr.Zero) Marshal.FreeHGlobal(snap);
                if (cmd != IntPtr.Zero) Marshal.FreeHGlobal(cmd);
            }
        }

        /// <summary>The vessel types' names, by type index (the server's world info).</summary>
        public string[] GetTypeNames()
        {
            Check(Native.nvc_get_world_info(Handle, worldInfo, error), "world info");
            var w = (Native.ProtoWorldInfo)Marshal.PtrToStructure(worldInfo, typeof(Native.ProtoWorldInfo));
            var names = new string[w.TypeCount];
            int stride = Marshal.SizeOf(typeof(Native.ProtoVesselType));
            for (uint i = 0; i < w.TypeCount; i++)
            {
                var t = (Native.ProtoVesselType)Marshal.PtrToStructure(
                    new IntPtr(w.Types.ToInt64() + i * stride), typeof(Native.ProtoVesselType));
                if (t.Type < names.Length) names[t.Type] = FromUtf8(t.Name);
            }
            return names;
        }

        /// <summary>
        /// Spawns a vessel of the named type afloat at (x, z) m, heading in
        /// radians about +y from +x toward -z. The server may place it
        /// elsewhere (clear of other hulls): see the returned X and Z.
        /// </summary>
        public SpawnedVessel Spawn(string typeName, double x, double z, double heading)
        {
            if (string.IsNullOrEmpty(typeName)) throw new ArgumentException("Spawn: the type name is empty");
            SpawnedVessel v;
            byte[] name = Encoding.UTF8.GetBytes(typeName + "\0");
            Check(Native.nvc_spawn(Handle, name, 0, x, z, heading, out v, error), "spawn '" + typeName + "'");
            return v;
        }

        /// <summary>Throttle and rudder in [-1, 1]: full astern .. full ahead, full port .. full starboard.</summary>
        public void Control(SpawnedVessel v, float throttle, float rudder)
        {
            if (!(throttle >= -1 && throttle <= 1)) throw new ArgumentOutOfRangeException("throttle", throttle, "must be in [-1, 1]");
            if (!(rudder >= -1 && rudder <= 1)) throw new ArgumentOutOfRangeException("rudder", rudder, "must be in [-1, 1]");
            Check(Native.nvc_control(Handle, ref v, throttle, rudder, error), "control");
        }

        public void Despawn(SpawnedVessel v)
        {
            Check(Native.nvc_despawn(Handle, ref v, error), "despawn");
        }

        /// <summary>
        /// Waits up to timeoutMs (0: not at all) for a snapshot and makes the
        /// newest one queued current (older ones are skipped: a game wants
        /// the latest world). False when none came; the previous one stays.
        /// </summary>
        public bool PollSnapshot(int timeoutMs)
        {
            bool got = false;
            for (int wait = timeoutMs; ; wait = 0)
            {
                int rc = Native.nvc_poll_snapshot(Handle, wait, snapshot, error);
                if (rc != 0)
                {
                    var code = (NavalErrorCode)Marshal.ReadInt32(error);
                    if (code == NavalErrorCode.TimedOut) break;
                    hasSnapshot = false;  // a failed decode leaves the struct empty
                    Check(rc, "poll snapshot");
                }
                got = true;
            }
            if (got)
            {
                hasSnapshot = true;
                tick = (ulong)Marshal.ReadInt64(snapshot, TickOffset);
                simTime = BitConverter.Int64BitsToDouble(Marshal.ReadInt64(snapshot, SimTimeOffset));
                vessels = Marshal.ReadIntPtr(snapshot, VesselsOffset);
                vesselCount = (uint)Marshal.ReadInt32(snapshot, VesselCountOffset);
            }
            return got;
        }

        /// <summary>The current snapshot's tick (0 before the first).</summary>
        public ulong Tick { get { return hasSnapshot ? tick : 0; } }
        /// <summary>World time after that tick, s.</summary>
        public double SimTime { get { return hasSnapshot ? simTime : 0; } }
        public int VesselCount { get { return hasSnapshot ? (int)vesselCount : 0; } }

        /// <summary>The current snapshot's vessel at index i (0 .. VesselCount - 1).</summary>
        public VesselState GetVessel(int i)
        {
            if (i < 0 || i >= VesselCount) throw new ArgumentOutOfRangeException("i", i, "no such vessel in the snapshot");
            return (VesselState)Marshal.PtrToStructure(new IntPtr(vessels.ToInt64() + (long)i * VesselSize), typeof(VesselState));
        }

        /// <summary>The vessel with that id in the current snapshot; false when it is not there.</summary>
        public bool TryGetVessel(uint id, out VesselState state)
        {
            for (int i = 0; i < VesselCount; i++)
            {
                IntPtr p = new IntPtr(vessels.ToInt64() + (long)i * VesselSize);
                if ((uint)Marshal.ReadInt32(p) == id)
                {
                    state = (VesselState)Marshal.PtrToStructure(p, typeof(VesselState));
                    return true;
                }
            }
            state = default(VesselState);
            return false;
        }

        public SnapshotCounts Counts
        {
            get
            {
                SnapshotCounts c;
                Native.nvc_snapshot_counts_get(Handle, out c);
                return c;
            }
        }

        public void Dispose()
        {
            if (client != IntPtr.Zero) Native.nvc_close(client);
            client = IntPtr.Zero;
            if (snapshot != IntPtr.Zero)
            {
                Native.proto_free_snapshot(snapshot);
                Marshal.FreeHGlobal(snapshot);
            }
            if (worldInfo != IntPtr.Zero)
            {
                Native.proto_free_world_info(worldInfo);
                Marshal.FreeHGlobal(worldInfo);
            }
            if (error != IntPtr.Zero) Marshal.FreeHGlobal(error);
            snapshot = worldInfo = error = IntPtr.Zero;
            hasSnapshot = false;
            GC.SuppressFinalize(this);
        }

        ~NavalClient()
        {
            Dispose();
        }

        IntPtr Handle
        {
            get
            {
                if (client == IntPtr.Zero) throw new ObjectDisposedException("NavalClient");
                return client;
            }
        }

        void Check(int rc, string what)
        {
            if (rc == 0) return;
            var e = (Native.NvError)Marshal.PtrToStructure(error, typeof(Native.NvError));
            throw new NavalException((NavalErrorCode)e.Code, e.Status, what + ": " + FromUtf8(e.Message));
        }

        static IntPtr AllocZeroed(int size)
        {
            IntPtr p = Marshal.AllocHGlobal(size);
            for (int i = 0; i < size; i++) Marshal.WriteByte(p, i, 0);
            return p;
        }

        // UTF-8 explicitly: the marshaller's "ANSI" is a code page on Windows.
        static IntPtr Utf8(string s)
        {
            if (s == null) return IntPtr.Zero;
            byte[] b = Encoding.UTF8.GetBytes(s + "\0");
            IntPtr p = Marshal.AllocHGlobal(b.Length);
            Marshal.Copy(b, 0, p, b.Length);
            return p;
        }

        internal static string FromUtf8(byte[] b)
        {
            int n = Array.IndexOf(b, (byte)0);
            return Encoding.UTF8.GetString(b, 0, n < 0 ? b.Length : n);
        }
    }

    /// <summary>The C declarations, as naval_client.h and proto/proto.h have them.</summary>
    internal static class Native
    {
        // libnaval_client.so on Linux, naval_client.dll on Windows.
        const string Library = "naval_client";

        // nv_error (naval/nv_error.h), 520 bytes.
        [StructLayout(LayoutKind.Sequential)]
        internal struct NvError
        {
            public int Code;
            public int Status;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 512)] public byte[] Message;
        }

        // nvc_options: the strings are UTF-8 in unmanaged memory.
        [StructLayout(LayoutKind.Sequential)]
        internal struct NvcOptions
        {
            public IntPtr SnapshotUrl;
            public IntPtr CommandUrl;
            public int RequestTimeoutMs;
            public UIntPtr MaxSnapshotBytes;
            public uint QueueDepth;
            public IntPtr AdminToken;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoTickStats
        {
            public float StepMs, WaterMs, VertexMs, TriangleMs, IntegrateMs, SnapshotMs;
            public uint VesselCount, Subscribers;
            public ulong Overruns;
            public float LodMs;
        }

        // proto_snapshot: read field by field from unmanaged memory (offsets from here).
        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoSnapshot
        {
            public ulong Tick;
            public double SimTime;
            public ulong SendTimeNs;
            public ProtoTickStats Stats;
            public IntPtr Vessels;
            public uint VesselCount, VesselCapacity;
            public IntPtr Contacts;
            public uint ContactCount, ContactCapacity;
            public IntPtr Damage;
            public uint DamageCount, DamageCapacity;
            public IntPtr DamageEvents;
            public uint DamageEventCount, DamageEventCapacity;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoOceanSpec
        {
            public byte Spectrum, Spreading;
            public double Gravity, WindSpeed, WindDirection, Fetch, Depth, Gamma, Swell, Choppiness;
            public int Beaufort;
            public double HsTarget, Size, CascadeRatio;
            public int Cascades, Resolution, ResolutionZ;
            public double RepeatPeriod, MinWavelength;
            public ulong Seed;
            public int QueryIterations;
            public double QueryTolerance;
            public int SurfaceGrid;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 4)] public double[] PatchSizes;
            public double Time, Tp;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoVesselType
        {
            public ushort Type;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)] public byte[] Name;
            public double Mass;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 3)] public float[] BoundsMin;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 3)] public float[] BoundsMax;
            public uint VertexCount, TriangleCount, CompartmentCount;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)] public float[] CompartmentVolumes;
            public float PumpRate;
        }

        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoTerrainInfo
        {
            public int Present;
            public double OriginX, OriginZ, CellSize;
            public uint Nx, Nz;
            public float MinElevation, MaxElevation;
            public IntPtr Heights;
            public uint HeightCapacity;
        }

        // proto_world_info: the library writes the whole struct, so the
        // memory given to it must be this size (BindingCheck holds it to C's).
        [StructLayout(LayoutKind.Sequential)]
        internal struct ProtoWorldInfo
        {
            public ushort ProtocolVersion;
            [MarshalAs(UnmanagedType.ByValArray, SizeConst = 64)] public byte[] ServerName;
            public double TickHz;
            public ulong Tick;
            public double SimTime, Gravity, WaterDensity;
            public int HasOcean;
            public ProtoOceanSpec Ocean;
            public IntPtr Types;
            public uint TypeCount, TypeCapacity;
            public ProtoTerrainInfo Terrain;
            public IntPtr Structures;
            public uint StructureCount, StructureCapacity;
        }

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void nvc_options_default(out NvcOptions o);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_connect(out IntPtr client, ref NvcOptions opts, IntPtr err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void nvc_close(IntPtr client);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_poll_snapshot(IntPtr client, int timeoutMs, IntPtr snapshot, IntPtr err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void nvc_snapshot_counts_get(IntPtr client, out SnapshotCounts counts);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_get_world_info(IntPtr client, IntPtr info, IntPtr err);

        // type_name: UTF-8, NUL-terminated (a byte[] is passed as a pointer to its first byte).
        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_spawn(IntPtr client, byte[] typeName, ushort type, double x, double z,
                                             double heading, out SpawnedVessel vessel, IntPtr err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_control(IntPtr client, ref SpawnedVessel vessel, float throttle, float rudder,
                                               IntPtr err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern int nvc_despawn(IntPtr client, ref SpawnedVessel vessel, IntPtr err);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void proto_free_snapshot(IntPtr snapshot);

        [DllImport(Library, CallingConvention = CallingConvention.Cdecl, ExactSpelling = true)]
        internal static extern void proto_free_world_info(IntPtr info);
    }
}
