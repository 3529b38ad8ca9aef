package reliability

// rssUnit is the unit of Rusage.Maxrss (kilobytes on Linux).
const rssUnit = 1 << 10
