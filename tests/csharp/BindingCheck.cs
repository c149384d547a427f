// SPDX-License-Identifier: MIT
// Checks of the C# binding (clients/csharp/NavalClient.cs) that need no server:
//   layout        prints every mirrored struct's size, field offsets and array
//                 lengths as the .NET marshaller lays them out (compared with
//                 the C compiler's by csharp_binding.sh, from csharp_layout.c);
//   axes          NavalAxes against rotations worked out independently;
//   errors URL    a refused connection comes back as a NavalException with
//                 the library's code and message (nv_error marshalled back).
// Exit 0 when every check holds, 1 naming the first that does not.
using System;
using System.Reflection;
using System.Runtime.InteropServices;
using Naval;

static class BindingCheck
{
    static int Main(string[] args)
    {
        try
        {
            if (args.Length == 1 && args[0] == "layout") Layout();
            else if (args.Length == 1 && args[0] == "axes") Axes();
            else if (args.Length == 2 && args[0] == "errors") Errors(args[1]);
            else
            {
                Console.Error.WriteLine("usage: BindingCheck.exe layout | axes | errors URL");
                return 2;
            }
            return 0;
        }
        catch (Exception e)
        {
            Console.Error.WriteLine("FAIL: " + e.Message);
            return 1;
        }
    }

    static readonly Type[] Mirrored = {
        typeof(Native.NvError), typeof(Native.NvcOptions), typeof(SpawnedVessel), typeof(SnapshotCounts),
        typeof(VesselState), typeof(Native.ProtoTickStats), typeof(Native.ProtoSnapshot),
        typeof(Native.ProtoOceanSpec), typeof(Native.ProtoVesselType), typeof(Native.ProtoTerrainInfo),
        typeof(Native.ProtoWorldInfo),
    };

    static void Layout()
    {
        foreach (Type t in Mirrored)
        {
            Console.WriteLine(t.Name + " size " + Marshal.SizeOf(t));
            foreach (FieldInfo f in t.GetFields(BindingFlags.Instance | BindingFlags.Public | BindingFlags.NonPublic))
            {
                Console.WriteLine(t.Name + "." + f.Name + " " + Marshal.OffsetOf(t, f.Name));
                var m = (MarshalAsAttribute)Attribute.GetCustomAttribute(f, typeof(MarshalAsAttribute));
                if (m != null && m.Value == UnmanagedType.ByValArray)
                    Console.WriteLine(t.Name + "." + f.Name + " count " + m.SizeConst);
            }
        }
    }

    // Rotates v by the unit quaternion q = (x, y, z, w): v + 2w(u x v) + 2u x (u x v).
    static double[] Rotate(double[] q, double[] v)
    {
        double[] u = { q[0], q[1], q[2] };
        double[] t = Cross(u, v);
        for (int i = 0; i < 3; i++) t[i] *= 2;
        double[] ut = Cross(u, t);
        return new[] { v[0] + q[3] * t[0] + ut[0], v[1] + q[3] * t[1] + ut[1], v[2] + q[3] * t[2] + ut[2] };
    }

    static double[] Cross(double[] a, double[] b)
    {
        return new[] { a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0] };
    }

    // Quaternion of `angle` radians about the unit axis.
    static double[] AxisAngle(double[] axis, double angle)
    {
        double s = Math.Sin(angle / 2);
        return new[] { axis[0] * s, axis[1] * s, axis[2] * s, Math.Cos(angle / 2) };
    }

    static double[] Multiply(double[] a, double[] b)
    {
        return new[] {
            a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
            a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
            a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
            a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
        };
    }

    static void Near(string what, double[] got, double[] want)
    {
        for (int i = 0; i < want.Length; i++)
            if (Math.Abs(got[i] - want[i]) > 1e-5)
                throw new Exception(what + ": got (" + string.Join(", ", got) + "), want (" + string.Join(", ", want) + ")");
    }

    static void Axes()
    {
        float px, py, pz;
        NavalAxes.ToUnityPosition(3, -1.5, 7, out px, out py, out pz);
        Near("position (3, -1.5, 7) in Unity", new double[] { px, py, pz }, new double[] { 3, -1.5, -7 });

        // Headings: a rotation about +y by h puts the bow at (cos h, 0, -sin h)
        // (the protocol's convention); NavalAxes.Heading reads h back, and in
        // Unity the model's forward (+z) is the mirrored bow, its right (+x)
        // the mirrored starboard, its up (+y) up.
        double[] up = { 0, 1, 0 };
        for (int k = -7; k <= 8; k++)
        {
            double h = k * Math.PI / 8;
            double[] q = AxisAngle(up, h);
            double got = NavalAxes.Heading((float)q[0], (float)q[1], (float)q[2], (float)q[3]);
            double diff = Math.Abs(Math.IEEERemainder(got - h, 2 * Math.PI));
            if (diff > 1e-5) throw new Exception("Heading of a turn by " + h + " rad: got " + got);
        }

        // Any orientation (heel, trim, heading together): each body axis lands,
        // in Unity, where the mirrored world axis is.
        var rng = new Random(7);
        for (int n = 0; n < 200; n++)
        {
            double[] axis = { rng.NextDouble() - 0.5, rng.NextDouble() - 0.5, rng.NextDouble() - 0.5 };
            double len = Math.Sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            for (int i = 0; i < 3; i++) axis[i] /= len;
            double[] q = AxisAngle(axis, (rng.NextDouble() * 2 - 1) * Math.PI);
            float ux, uy, uz, uw;
            NavalAxes.ToUnityRotation((float)q[0], (float)q[1], (float)q[2], (float)q[3], out ux, out uy, out uz, out uw);
            double[] u = { ux, uy, uz, uw };
            double norm = Math.Sqrt(ux * ux + uy * uy + uz * uz + uw * uw);
            if (Math.Abs(norm - 1) > 1e-5) throw new Exception("Unity rotation not unit: " + norm);
            // body bow +x -> model forward +z, up +y -> +y, starboard +z -> right +x
            double[][] body = { new double[] { 1, 0, 0 }, new double[] { 0, 1, 0 }, new double[] { 0, 0, 1 } };
            double[][] model = { new double[] { 0, 0, 1 }, new double[] { 0, 1, 0 }, new double[] { 1, 0, 0 } };
            string[] names = { "bow", "up", "starboard" };
            for (int a = 0; a < 3; a++)
            {
                double[] world = Rotate(q, body[a]);
                double[] mirrored = { world[0], world[1], -world[2] };
                Near(names[a] + " of rotation " + n, Rotate(u, model[a]), mirrored);
            }
            // Composing with Unity's own product keeps the same meaning: a
            // further yaw in the server's frame is the opposite yaw in Unity's.
            double[] yaw = AxisAngle(up, 0.3);
            float vx, vy, vz, vw;
            double[] q2 = Multiply(yaw, q);
            NavalAxes.ToUnityRotation((float)q2[0], (float)q2[1], (float)q2[2], (float)q2[3], out vx, out vy, out vz, out vw);
            double[] unityYaw = AxisAngle(up, -0.3);
            double[] composed = Multiply(unityYaw, u);
            double sign = composed[3] * vw + composed[0] * vx + composed[1] * vy + composed[2] * vz < 0 ? -1 : 1;
            Near("yaw composed, rotation " + n, new double[] { vx, vy, vz, vw },
                 new[] { sign * composed[0], sign * composed[1], sign * composed[2], sign * composed[3] });
        }
        Console.WriteLine("axes ok");
    }

    static void Errors(string url)
    {
        try
        {
            using (NavalClient.Connect(null, url, 500))
            {
            }
            throw new Exception("connecting to " + url + " (nothing listening) succeeded");
        }
        catch (NavalException e)
        {
            if (e.Code != NavalErrorCode.Connect) throw new Exception("refused connection: code " + e.Code + ", want Connect");
            if (!e.Message.StartsWith("connect: ") || e.Message.IndexOf("refused", StringComparison.OrdinalIgnoreCase) < 0)
                throw new Exception("refused connection: message '" + e.Message + "'");
            Console.WriteLine("refused: " + e.Message);
        }
        try
        {
            NavalClient.Connect(null, null);
            throw new Exception("Connect(null, null) was accepted");
        }
        catch (ArgumentException e)
        {
            Console.WriteLine("no URL: " + e.Message);
        }
        try
        {
            NavalClient.Connect("http://127.0.0.1:1", null);
            throw new Exception("an http:// URL was accepted");
        }
        catch (NavalException e)
        {
            Console.WriteLine("bad URL: " + e.Message + " (" + e.Code + ")");
        }
        Console.WriteLine("errors ok");
    }
}
