# Live play views come here.
