// SPDX-License-Identifier: MIT
/* The page served at / when there is no web client folder: a top-down
 * view of the fleet from /ws/snapshots, decoding just enough of the
 * FlatBuffers snapshot by hand (tick, vessel positions) to need no
 * library. The real client lives in clients/web. */
#ifndef NAVAL_SERVER_HTTP_PAGE_H
#define NAVAL_SERVER_HTTP_PAGE_H

static const char http_page_html[] =
    "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>naval-server</title>\n"
    "<style>body{font:14px sans-serif;margin:0;background:#0b2233;color:#dde}#s{padding:6px 10px}"
    "canvas{display:block;width:100vw;height:calc(100vh - 34px)}a{color:#9cf}</style></head>\n"
    "<body><div id=\"s\">connecting... &middot; <a href=\"/metrics\">metrics</a> &middot; "
    "<a href=\"/healthz\">health</a></div><canvas id=\"c\"></canvas>\n<script>\n"
    "const st=document.getElementById('s'),cv=document.getElementById('c'),g=cv.getContext('2d');\n"
    "let n=0,t0=performance.now(),rate=0,bytes=0;\n"
    "function field(dv,tab,i){const vt=tab-dv.getInt32(tab,true),len=dv.getUint16(vt,true),o=4+2*i;"
    "return o<len?dv.getUint16(vt+o,true):0;}\n"
    "function draw(buf){const dv=new DataView(buf),root=dv.getUint32(0,true);\n"
    " const ft=field(dv,root,0),tick=ft?dv.getBigUint64(root+ft,true):0n,fv=field(dv,root,4);\n"
    " let count=0,vec=0;if(fv){vec=root+fv+dv.getUint32(root+fv,true);count=dv.getUint32(vec,true);vec+=4;}\n"
    " cv.width=cv.clientWidth;cv.height=cv.clientHeight;g.fillStyle='#0b2233';g.fillRect(0,0,cv.width,cv.height);\n"
    " let r=1;for(let i=0;i<count;i++){const b=vec+72*i;r=Math.max(r,Math.abs(dv.getFloat64(b+8,true)),"
    "Math.abs(dv.getFloat64(b+24,true)));}\n"
    " const s=0.45*Math.min(cv.width,cv.height)/r;g.fillStyle='#fd6';\n"
    " for(let i=0;i<count;i++){const b=vec+72*i,x=dv.getFloat64(b+8,true),z=dv.getFloat64(b+24,true);"
    "g.fillRect(cv.width/2+x*s-2,cv.height/2+z*s-2,4,4);}\n"
    " n++;bytes=buf.byteLength;const now=performance.now();if(now-t0>1000){rate=n*1000/(now-t0);n=0;t0=now;}\n"
    " st.firstChild.textContent='tick '+tick+' \\u00b7 '+count+' vessels \\u00b7 '+rate.toFixed(1)+"
    "' snapshots/s \\u00b7 '+bytes+' B \\u00b7 ';}\n"
    "function go(){const ws=new WebSocket((location.protocol==='https:'?'wss://':'ws://')+location.host+"
    "'/ws/snapshots','pub.sp.nanomsg.org');\n"
    " ws.binaryType='arraybuffer';ws.onmessage=e=>draw(e.data);"
    "ws.onclose=()=>{st.firstChild.textContent='disconnected, retrying... \\u00b7 ';setTimeout(go,1000);};}\n"
    "go();\n</script></body></html>\n";

#endif
