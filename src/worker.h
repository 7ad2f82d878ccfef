#ifndef ACCELSCOPE_WORKER_H
#define ACCELSCOPE_WORKER_H

/* Entry point of `accelscope __worker ALG IMPL BYTES DECRYPT SECONDS SAMPLES CPU`. */
int worker_main(int argc, char **argv);

#endif
