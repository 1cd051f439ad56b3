# sim/: the fecsim command line tool and its scenario/results machinery.
