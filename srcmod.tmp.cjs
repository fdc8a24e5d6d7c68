const {SourceMapConsumer}=require('source-map-js');const fs=require('fs');const zlib=require('zlib');
const f=process.argv[2];const code=fs.readFileSync(f,'utf8');const map=JSON.parse(fs.readFileSync(f+'.map','utf8'));
const c=new SourceMapConsumer(map);const lines=code.split('\n');const segs=[];
c.eachMapping(m=>{segs.push([m.generatedLine,m.generatedColumn,m.source])});
segs.sort((a,b)=>a[0]-b[0]||a[1]-b[1]);const text={};
for(let i=0;i<segs.length;i++){const [l,col,s]=segs[i];const n=segs[i+1];let str;
 if(n&&n[0]===l)str=lines[l-1].slice(col,n[1]);else str=lines[l-1].slice(col);
 const key=(s||'?').replace(/^(\.\.\/)+/,'');text[key]=(text[key]||'')+str;}
const rows=Object.entries(text).map(([k,v])=>[k,v.length,zlib.gzipSync(v).length]).sort((a,b)=>b[1]-a[1]);
for(const r of rows.slice(0,+process.argv[3]||30))console.log(String(r[1]).padStart(6),String(r[2]).padStart(6),r[0]);
