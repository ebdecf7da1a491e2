// Early writeback (sync_file_range every 4 MiB) on both of the file section's copies, outside WatchPair
// (BENCHMARKS.md, *Files*, third round), alternating in each round: the durable copy (read/write 1 MiB at a
// time with the CRC-32C, fsync; `durable`, `durable+kick`) and the raw copy through a socketpair, its
// receiving end fdatasynced once (`raw`, `raw+kick`: the kick at the receiving end). Milliseconds per copy.
//
// build: gcc -O2 -o copy-writeback scripts/bench/copy-writeback.c Sources/CCRC32C/crc32c.c -ISources/CCRC32C/include -lpthread
// usage: ./copy-writeback SOURCE ROUNDS   (writes and removes SOURCE.out)
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <stdint.h>
#include <pthread.h>
#include <sys/socket.h>
uint32_t watchpair_crc32c_hardware_update(uint32_t crc, const uint8_t *bytes, size_t length);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
#define BUF (1<<20)
#define KICK (4<<20)
static void drain(int in,int out,int kick,int crc){ static __thread uint8_t buf[BUF]; ssize_t n; off_t total=0,kicked=0; uint32_t c=0;
  while((n=read(in,buf,BUF))>0){ if(crc)c=watchpair_crc32c_hardware_update(c,buf,n); for(ssize_t w=0;w<n;){ssize_t m=write(out,buf+w,n-w); if(m<=0)exit(1); w+=m;} total+=n;
    if(kick && total-kicked>=KICK){ sync_file_range(out,kicked,total-kicked,SYNC_FILE_RANGE_WRITE); kicked=total; } } }
static double durable(const char*src,const char*dst,int kick){ double t0=now(); int in=open(src,O_RDONLY), out=open(dst,O_WRONLY|O_CREAT|O_TRUNC,0600);
  drain(in,out,kick,1); fsync(out); double t=now()-t0; close(in); close(out); unlink(dst); return t*1e3; }
struct S{int in,sock;};
static void*sender(void*p){struct S*s=p; drain(s->in,s->sock,0,0); close(s->sock); return 0;}
static double raw(const char*src,const char*dst,int kick){ int sv[2]; socketpair(AF_UNIX,SOCK_STREAM,0,sv); int in=open(src,O_RDONLY), out=open(dst,O_WRONLY|O_CREAT|O_TRUNC,0600);
  double t0=now(); struct S s={in,sv[1]}; pthread_t th; pthread_create(&th,0,sender,&s); drain(sv[0],out,kick,0); fdatasync(out); double t=now()-t0; pthread_join(th,0); close(in); close(out); close(sv[0]); unlink(dst); return t*1e3; }
int main(int c,char**v){ char dst[512]; snprintf(dst,512,"%s.out",v[1]); int R=atoi(v[2]);
  for(int r=0;r<R;r++){ printf("durable %.1f  durable+kick %.1f  raw %.1f  raw+kick %.1f\n", durable(v[1],dst,0), durable(v[1],dst,1), raw(v[1],dst,0), raw(v[1],dst,1)); fflush(stdout);} }
