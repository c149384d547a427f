// SPDX-License-Identifier: MIT
// NOT Unity: a stub of the few UnityEngine types clients/csharp/NavalBoat.cs
// uses, with Unity's names and signatures, only so that CI type-checks the
// MonoBehaviour's calls into the binding without Unity installed. It is
// never run and never shipped; in a Unity project the real UnityEngine.dll
// takes its place.
namespace UnityEngine
{
    public enum KeyCode { A = 97, D = 100, S = 115, W = 119, X = 120 }

    public struct Vector3
    {
        public float x, y, z;
        public Vector3(float x, float y, float z) { this.x = x; this.y = y; this.z = z; }
        public static Vector3 zero { get { return new Vector3(0, 0, 0); } }
    }

    public struct Quaternion
    {
        public float x, y, z, w;
        public Quaternion(float x, float y, float z, float w) { this.x = x; this.y = y; this.z = z; this.w = w; }
    }

    public class Object { }

    public class Component : Object
    {
        public Transform transform { get { return null; } }
    }

    public class Transform : Component
    {
        public Vector3 position { get; set; }
        public Quaternion rotation { get; set; }
    }

    public class Behaviour : Component
    {
        public bool enabled { get; set; }
    }

    public class MonoBehaviour : Behaviour { }

    public static class Input
    {
        public static bool GetKey(KeyCode key) { return false; }
        public static bool GetKeyDown(KeyCode key) { return false; }
    }

    public static class Time
    {
        public static float deltaTime { get { return 0; } }
        public static float time { get { return 0; } }
    }

    public static class Mathf
    {
        public static float Clamp(float value, float min, float max) { return value < min ? min : value > max ? max : value; }
    }

    public static class Debug
    {
        public static void Log(object message) { System.Console.WriteLine(message); }
        public static void LogWarning(object message) { System.Console.WriteLine(message); }
        public static void LogError(object message) { System.Console.Error.WriteLine(message); }
    }
}
