package datasets

import "time"

func durationUS(us int64) time.Duration { return time.Duration(us) * time.Microsecond }
