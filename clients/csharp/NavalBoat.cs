// SPDX-License-Identifier: MIT
// A Unity MonoBehaviour on the C# binding (NavalClient.cs): attach it to a
// boat's GameObject. On Start it connects and spawns a vessel of `vesselType`;
// in Update the keys set throttle and rudder (sent when they change), and the
// newest snapshot poses the GameObject; OnDestroy despawns and disconnects.
//
// Axes: the server is right-handed with +y up (body: +x bow, +z starboard);
// Unity is left-handed with +y up (a model faces +z). NavalAxes mirrors z and
// turns the body so that transform.forward is the bow and transform.right is
// starboard: build or import the boat's model facing +z as usual.
//
// Threads: everything here runs on Unity's main thread. The library receives
// snapshots on its own thread and queues the newest few; Update only polls
// (without waiting) and never blocks the frame on the network, except the
// requests (spawn on Start, control on a key change, despawn), each a short
// round trip bounded by `requestTimeoutMs`.
//
// Needs the native plugin libnaval_client.so (Linux; build target
// naval_client_shared) or its Windows/macOS build, named naval_client, in
// Assets/Plugins/, and libnng on the system (docs/clients.md, "Engine samples").
using Naval;
using UnityEngine;

public class NavalBoat : MonoBehaviour
{
    public string snapshotUrl = "tcp://127.0.0.1:7700";
    public string commandUrl = "tcp://127.0.0.1:7701";
    public string vesselType = "skiff";
    public int requestTimeoutMs = 2000;
    /// <summary>Where to ask for the spawn, in Unity's axes (the server may move it clear of other hulls).</summary>
    public Vector3 spawnPosition = Vector3.zero;

    public KeyCode ahead = KeyCode.W, astern = KeyCode.S, port = KeyCode.A, starboard = KeyCode.D, stop = KeyCode.X;
    /// <summary>Throttle and rudder change by this per second while their key is held.</summary>
    public float controlRate = 0.5f;
    /// <summary>Seconds between control requests at most (the server rate-limits each connection).</summary>
    public float controlInterval = 0.1f;

    NavalClient client;
    SpawnedVessel boat;
    bool spawned;
    float throttle, rudder, sentThrottle = float.NaN, sentRudder = float.NaN, nextControlTime;

    public float Throttle { get { return throttle; } }
    public float Rudder { get { return rudder; } }
    public uint VesselId { get { return boat.Id; } }

    void Start()
    {
        try
        {
            client = NavalClient.Connect(snapshotUrl, commandUrl, requestTimeoutMs);
            // Unity's z is the server's -z; heading 0 is the server's +x (Unity's +x too).
            boat = client.Spawn(vesselType, spawnPosition.x, -spawnPosition.z, 0);
            spawned = true;
            Debug.Log("naval: spawned " + vesselType + " " + boat.Id + " at (" + boat.X + ", " + boat.Z + ")");
        }
        catch (NavalException e)
        {
            Debug.LogError("naval: " + e.Message);
            enabled = false;
        }
    }

    void Update()
    {
        if (!spawned) return;
        float step = controlRate * Time.deltaTime;
        if (Input.GetKey(ahead)) throttle = Mathf.Clamp(throttle + step, -1f, 1f);
        if (Input.GetKey(astern)) throttle = Mathf.Clamp(throttle - step, -1f, 1f);
        if (Input.GetKey(starboard)) rudder = Mathf.Clamp(rudder + step, -1f, 1f);
        if (Input.GetKey(port)) rudder = Mathf.Clamp(rudder - step, -1f, 1f);
        if (Input.GetKeyDown(stop))
        {
            throttle = 0;
            rudder = 0;
        }

        try
        {
            // Changes only, and at most one request per controlInterval: a
            // request every frame while a key is held would be rate-limited.
            if ((throttle != sentThrottle || rudder != sentRudder) && Time.time >= nextControlTime)
            {
                client.Control(boat, throttle, rudder);
                sentThrottle = throttle;
                sentRudder = rudder;
                nextControlTime = Time.time + controlInterval;
            }

            VesselState s;
            if (client.PollSnapshot(0) && client.TryGetVessel(boat.Id, out s))
            {
                float x, y, z, qx, qy, qz, qw;
                NavalAxes.ToUnityPosition(s.X, s.Y, s.Z, out x, out y, out z);
                NavalAxes.ToUnityRotation(s.Qx, s.Qy, s.Qz, s.Qw, out qx, out qy, out qz, out qw);
                transform.position = new Vector3(x, y, z);
                transform.rotation = new Quaternion(qx, qy, qz, qw);
            }
        }
        catch (NavalException e)
        {
            Debug.LogWarning("naval: " + e.Message);
        }
    }

    void OnDestroy()
    {
        if (client == null) return;
        try
        {
            if (spawned) client.Despawn(boat);
        }
        catch (NavalException e)
        {
            Debug.LogWarning("naval: despawn: " + e.Message);
        }
        spawned = false;
        client.Dispose();
        client = null;
    }
}
