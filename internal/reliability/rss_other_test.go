//go:build unix && !linux

package reliability

// rssUnit is the unit of Rusage.Maxrss (bytes on the BSDs and macOS).
const rssUnit = 1
