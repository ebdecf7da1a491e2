// phoned's spool copy outside WatchPair, three ways, on the file system of SOURCE (BENCHMARKS.md, *Files*,
// third round): read/write 1 MiB at a time with the CRC-32C of each buffer, then fsync (`rw`, as
// FileSpool.copyIn did); the same starting each 8 MiB's writeback with sync_file_range (`rw+kick`);
// copy_file_range (in-kernel), then the CRC over an mmap of the copy, then fsync (`cfr`), and that CRC on a
// second thread beside the fsync (`cfr+par`, `cfr+par+kick`). Three rounds, each way once per round.
//
// build: gcc -O2 -o spool-copy scripts/bench/spool-copy.c Sources/CCRC32C/crc32c.c -ISources/CCRC32C/include -lpthread
// usage: head -c 100M /dev/urandom > /tmp/src.bin; ./spool-copy /tmp/src.bin   (writes and removes SOURCE.rw, SOURCE.cfr)
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <time.h>
#include <errno.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <pthread.h>
#include <stdint.h>
uint32_t watchpair_crc32c_hardware_update(uint32_t crc, const uint8_t *bytes, size_t length);
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+t.tv_nsec/1e9;}
#define BUF (1<<20)
static void mode_rw(const char *src, const char *dst, int kick) {
  double t0=now(); int in=open(src,O_RDONLY); int out=open(dst,O_WRONLY|O_CREAT|O_TRUNC,0600);
  static uint8_t buf[BUF]; uint32_t crc=0; ssize_t n; off_t total=0;
  double tcrc=0;
  while((n=read(in,buf,BUF))>0){ double a=now(); crc=watchpair_crc32c_hardware_update(crc,buf,n); tcrc+=now()-a; write(out,buf,n);
    if(kick && ((total+n)>>23)!=(total>>23)) sync_file_range(out,(total>>23)<<23, 8<<20, SYNC_FILE_RANGE_WRITE);
    total+=n;}
  double t1=now(); fsync(out); double t2=now(); close(in); close(out);
  printf("rw%s      copy %.1f ms (crc %.1f) fsync %.1f ms total %.1f ms crc %08x\n", kick?"+kick":"", (t1-t0)*1e3, tcrc*1e3,(t2-t1)*1e3,(t2-t0)*1e3,crc);
}
struct cj{int fd; size_t len; uint32_t crc;};
static void *crcjob(void *p){struct cj*j=p; uint8_t*m=mmap(0,j->len,PROT_READ,MAP_SHARED|MAP_POPULATE,j->fd,0); madvise(m,j->len,MADV_SEQUENTIAL); j->crc=watchpair_crc32c_hardware_update(0,m,j->len); munmap(m,j->len); return 0;}
static void mode_cfr(const char *src, const char *dst, int par, int kick) {
  double t0=now(); int in=open(src,O_RDONLY); int out=open(dst,O_RDWR|O_CREAT|O_TRUNC,0600);
  struct stat st; fstat(in,&st); off_t total=0; ssize_t n;
  while((n=copy_file_range(in,NULL,out,NULL, kick? (8<<20) : (1<<30),0))>0){ if(kick) sync_file_range(out,total,n,SYNC_FILE_RANGE_WRITE); total+=n;}
  if(n<0) perror("cfr");
  double t1=now(); struct cj j={out,total,0}; pthread_t th; double t2,t3;
  if(par){ pthread_create(&th,0,crcjob,&j); fsync(out); t2=now(); pthread_join(th,0); t3=now(); }
  else { crcjob(&j); t2=now(); fsync(out); t3=now(); }
  close(in); close(out);
  printf("cfr%s%s copy %.1f ms, %s %.1f, then %.1f total %.1f ms crc %08x\n", par?"+par":"    ", kick?"+kick":"", (t1-t0)*1e3, par?"fsync":"crc", (t2-t1)*1e3,(t3-t2)*1e3,(t3-t0)*1e3,j.crc);
}
int main(int c,char**v){ const char*src=v[1]; char dst[512]; 
  for(int r=0;r<3;r++){ 
  snprintf(dst,512,"%s.rw",src); unlink(dst); mode_rw(src,dst,0); unlink(dst);
  snprintf(dst,512,"%s.rw",src); unlink(dst); mode_rw(src,dst,1); unlink(dst);
  snprintf(dst,512,"%s.cfr",src); mode_cfr(src,dst,0,0); unlink(dst);
  snprintf(dst,512,"%s.cfr",src); mode_cfr(src,dst,1,0); unlink(dst);
  snprintf(dst,512,"%s.cfr",src); mode_cfr(src,dst,1,1); unlink(dst);
  }
}
