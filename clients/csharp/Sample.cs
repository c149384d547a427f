// SPDX-License-Identifier: MIT
// The C# binding in a console program: connects to a naval-server, lists
// the vessel types, spawns a boat, steers it for a few seconds, prints where
// it went and how far it turned, despawns it and checks it is gone.
//
//   mono naval-sample.exe [--snapshots tcp://127.0.0.1:7700] [--commands tcp://127.0.0.1:7701]
//                         [--type skiff] [--seconds 8] [--throttle 1] [--rudder 0.5] [--hold 0]
//
// The output is one line per step, a word and then "name value" pairs, for people and for
// tests/csharp/csharp_sample.sh. --hold keeps the boat (stopped) that many
// seconds before the despawn, so that another program can look at it.
// Exit 0 on success, 2 for a bad argument, 1 when the server fails us. --help lists the flags.
using System;
using System.Globalization;
using System.Threading;
using Naval;

static class Sample
{
    const string Usage =
        "usage: mono naval-sample.exe [options]\n" +
        "\n" +
        "Connects to a naval-server, lists its vessel types, spawns a boat, steers it, prints\n" +
        "where it went and how far it turned, despawns it and checks it is gone.\n" +
        "\n" +
        "options:\n" +
        "  --snapshots URL   the server's snapshot stream (default tcp://127.0.0.1:7700)\n" +
        "  --commands URL    the server's request socket (default tcp://127.0.0.1:7701)\n" +
        "  --type NAME       the vessel type to spawn (default skiff)\n" +
        "  --seconds S       how long to steer, 0.1..600 (default 8)\n" +
        "  --throttle T      -1..1 (default 1)\n" +
        "  --rudder R        -1..1, positive to starboard (default 0.5)\n" +
        "  --hold S          seconds to keep the boat, stopped, before the despawn, 0..600 (default 0)\n" +
        "  --help, -h        this text\n" +
        "\n" +
        "Exit: 0 done, 1 the server failed us, 2 a bad argument.\n";

    static int Main(string[] args)
    {
        if (Array.Exists(args, a => a == "--help" || a == "-h"))
        {
            Console.Write(Usage);
            return 0;
        }
        string snapshots = "tcp://127.0.0.1:7700", commands = "tcp://127.0.0.1:7701", type = "skiff";
        double seconds = 8, hold = 0;
        float throttle = 1, rudder = 0.5f;
        try
        {
            for (int i = 0; i < args.Length; i++)
            {
                string flag = args[i];
                if (i + 1 >= args.Length) throw new ArgumentException(flag + ": expected a value");
                string value = args[++i];
                switch (flag)
                {
                    case "--snapshots": snapshots = value; break;
                    case "--commands": commands = value; break;
                    case "--type": type = value; break;
                    case "--seconds": seconds = Number(flag, value, 0.1, 600); break;
                    case "--hold": hold = Number(flag, value, 0, 600); break;
                    case "--throttle": throttle = (float)Number(flag, value, -1, 1); break;
                    case "--rudder": rudder = (float)Number(flag, value, -1, 1); break;
                    default: throw new ArgumentException("unknown option '" + flag + "'");
                }
            }
        }
        catch (ArgumentException e)
        {
            Console.Error.WriteLine("naval-sample: " + e.Message);
            return 2;
        }

        try
        {
            Run(snapshots, commands, type, seconds, throttle, rudder, hold);
            return 0;
        }
        catch (NavalException e)
        {
            Console.Error.WriteLine("naval-sample: " + e.Message + " (" + e.Code + ")");
            return 1;
        }
        catch (TimeoutException e)
        {
            Console.Error.WriteLine("naval-sample: " + e.Message);
            return 1;
        }
    }

    static void Run(string snapshots, string commands, string type, double seconds, float throttle, float rudder,
                    double hold)
    {
        using (NavalClient client = NavalClient.Connect(snapshots, commands))
        {
            string[] names = client.GetTypeNames();
            Say("types " + string.Join(" ", names));

            SpawnedVessel boat = client.Spawn(type, 0, 0, 0);
            Say("spawned id " + boat.Id + " type " + type + " x " + F(boat.X) + " z " + F(boat.Z));

            VesselState start = WaitFor(client, boat.Id, true, 5);
            Say("start tick " + client.Tick + " x " + F(start.X) + " z " + F(start.Z) +
                " heading_deg " + F(Deg(start.Heading)));

            // Steer, following the heading through every snapshot so that a
            // turn past 180 degrees is counted whole.
            client.Control(boat, throttle, rudder);
            Say("control throttle " + F(throttle) + " rudder " + F(rudder) + " seconds " + F(seconds));
            double turned = 0, lastHeading = start.Heading;
            VesselState now = start;
            DateTime until = DateTime.UtcNow.AddSeconds(seconds);
            while (DateTime.UtcNow < until)
            {
                if (!client.PollSnapshot(200)) continue;
                if (!client.TryGetVessel(boat.Id, out now)) throw new TimeoutException("the boat left the snapshots");
                turned += Wrap(now.Heading - lastHeading);
                lastHeading = now.Heading;
            }
            double dx = now.X - start.X, dz = now.Z - start.Z;
            Say("end tick " + client.Tick + " x " + F(now.X) + " z " + F(now.Z) + " heading_deg " + F(Deg(now.Heading)) +
                " speed " + F(now.Speed));
            Say("result moved_m " + F(Math.Sqrt(dx * dx + dz * dz)) + " turned_deg " + F(Deg(turned)));

            // In Unity's axes (what NavalBoat.cs poses a GameObject with).
            float ux, uy, uz, qx, qy, qz, qw;
            NavalAxes.ToUnityPosition(now.X, now.Y, now.Z, out ux, out uy, out uz);
            NavalAxes.ToUnityRotation(now.Qx, now.Qy, now.Qz, now.Qw, out qx, out qy, out qz, out qw);
            Say("unity x " + F(ux) + " y " + F(uy) + " z " + F(uz) + " qx " + F(qx) + " qy " + F(qy) + " qz " + F(qz) +
                " qw " + F(qw));

            if (hold > 0)
            {
                client.Control(boat, 0, 0);
                Say("holding id " + boat.Id + " seconds " + F(hold));
                Thread.Sleep(TimeSpan.FromSeconds(hold));
            }

            client.Despawn(boat);
            WaitFor(client, boat.Id, false, 5);
            Say("despawned id " + boat.Id + " tick " + client.Tick);
            SnapshotCounts counts = client.Counts;
            Say("snapshots received " + counts.Received + " dropped " + counts.Dropped);
        }
    }

    // Polls until the vessel is in (present) or out of the current snapshot.
    static VesselState WaitFor(NavalClient client, uint id, bool present, double seconds)
    {
        DateTime until = DateTime.UtcNow.AddSeconds(seconds);
        VesselState s;
        while (DateTime.UtcNow < until)
        {
            if (client.PollSnapshot(200) && client.TryGetVessel(id, out s) == present) return s;
        }
        throw new TimeoutException("vessel " + id + (present ? " did not appear" : " is still there") +
                                   " after " + seconds + " s of snapshots");
    }

    static double Number(string flag, string text, double min, double max)
    {
        double v;
        if (!double.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out v) || v < min || v > max)
            throw new ArgumentException(flag + ": expected a number in [" + F(min) + ", " + F(max) + "] (got '" + text + "')");
        return v;
    }

    static double Wrap(double a)
    {
        while (a > Math.PI) a -= 2 * Math.PI;
        while (a <= -Math.PI) a += 2 * Math.PI;
        return a;
    }

    static double Deg(double rad) { return rad * 180 / Math.PI; }

    static string F(double v) { return v.ToString("0.###", CultureInfo.InvariantCulture); }

    static void Say(string line)
    {
        Console.WriteLine(line);
        Console.Out.Flush();
    }
}
