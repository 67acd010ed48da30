# lesson 16: own exact turn distribution by recursion on Fractions
from fractions import Fraction as F
from statistics import NormalDist
import math
def turn_dist(faces, reroll, N):   # reroll[i] True = reroll after face i
    f=[F(0)]*(N+1); p=F(1,len(faces))
    for d in range(1,N+1):
        s=F(0)
        for v,r in zip(faces,reroll):
            if v<=d:
                s+= p*(f[d-v] if r else (1 if d==v else 0))
        f[d]=s
    return f   # f[0]=0; f[d]=P(D=d)
N=200
src=turn_dist([1,2,3,4,1,3],[1,1,1,1,0,0],N)
# moments exactly (closed form): white sum per roll mean 10/4, stop prob 1/3
mean=sum(d*p for d,p in enumerate(src)); var=sum(d*d*p for d,p in enumerate(src))-mean**2
print("truncated mean/var",float(mean),float(var))
# closed form: N whites ~ Geom, P(white)=2/3; E[N]=2, Var N=6; white face mean 5/2 var 5/4; black mean 2 var 1
EN,VN=F(2),F(6); mw,vw=F(5,2),F(5,4); mb,vb=F(2),F(1)
M=EN*mw+mb; V=EN*vw+VN*mw**2+vb; print("exact mean",M,"var",V)
def conv(a,b,N):
    c=[F(0)]*(N+1)
    for i,x in enumerate(a):
        if x:
            for j,y in enumerate(b[:N+1-i]):
                if y: c[i+j]+=x*y
    return c
U=160
after={1:src[:U+1]}
for k in range(2,9): after[k]=conv(after[k-1],src[:U+1],U)
cum=lambda dist,s: sum(dist[:s+1])
print("P(S3>30)",float(1-cum(after[3],30)))
def gap(dist,nd):
    c=F(0);w=0
    for s in range(0,U-40):
        c+=dist[s]; w=max(w,abs(float(c)-nd.cdf(s+.5)))
    return w
nr=[F(0)]+[F(1,6)*[1,2,3,4,1,3].count(d) for d in range(1,U+1)]
nrm=F(14,6); nrv=F(1+4+9+16+1+9,6)-nrm**2
nra={1:nr}
for k in range(2,9): nra[k]=conv(nra[k-1],nr,U)
for k in (1,8):
    print("gap k",k,"rerolls %.4f"%gap(after[k],NormalDist(float(k*M),math.sqrt(k*V))),"none %.4f"%gap(nra[k],NormalDist(float(k*nrm),math.sqrt(k*nrv))))
L=20; worst=0
for k in range(1,6):
    ex=1-cum(after[k],L); no=1-NormalDist(float(k*M),math.sqrt(k*V)).cdf(L+.5); worst=max(worst,abs(float(ex)-no))
    print("cross",k,"%.4f %.4f"%(float(ex),no))
print("max err",worst)
e1=cum(after[2],10); print("ex1 P(S2<=10)",e1,float(e1))
pub=turn_dist([1,1,2,3,3,4],[1,1,0,0,0,0],N)  # published: both 1s reroll; black 3 only if last (lone: not last)
pm=sum(d*p for d,p in enumerate(pub)); pv=sum(d*d*p for d,p in enumerate(pub))-pm**2
print("published mean/var (trunc)",float(pm),float(pv))
# closed: ones ~Geom P(1)=1/3 -> E=1/2, Var=3/4; final face in {2,3,3,4}: mean 3 var 1/2
pV=F(3,4)+F(1,2); print("published var exact",pV,"x3",3*pV)
from meeple.widgets.exercises import check
import meeple.widgets.exercises_15_18 as E; print(E.PARAMS["16"])
print(check("16.at_most",e1),check("16.variance",3*pV),check("16.variance",3*F(41)))
