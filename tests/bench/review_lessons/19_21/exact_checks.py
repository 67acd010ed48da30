# Independent exact checks for lessons 19-21 (plain Python, Fractions; no meeple.rules.exact)
from fractions import Fraction as F
from math import comb
from functools import lru_cache
N,B=66,6
print("L19 start",F(B,N),"after36",F(B,N-36),float(F(B,N-36)/F(B,N)))
h=33
bag={k:F(comb(B,k)*comb(N-B,h-k),comb(N,h)) for k in range(B+1)}
p=F(B,N); free={k:comb(h,k)*p**k*(1-p)**(h-k) for k in range(h+1)}
mean=lambda d:sum(k*v for k,v in d.items()); var=lambda d:sum(k*k*v for k,v in d.items())-mean(d)**2
print("L19 half mean",mean(bag),mean(free),"var",var(bag),float(var(bag)),var(free),float(var(free)),"P0",float(bag[0]),float(free[0]))
# longest gap: count compositions of N-B ducks into B+1 gaps each <=m
@lru_cache(None)
def ways(gaps,total,m):
    if gaps==0: return 1 if total==0 else 0
    return sum(ways(gaps-1,total-g,m) for g in range(min(m,total)+1))
tot=comb(N,B); cdf=lambda m:F(ways(B+1,N-B,m),tot)
gap={m:cdf(m)-(cdf(m-1) if m else 0) for m in range(N-B+1)}
assert sum(gap.values())==1
# longest run with replacement: DP over sequences, each card duck w.p. q
def longest_run(n,q):
    # state (current run, best) -> prob
    st={(0,0):F(1)}
    for _ in range(n):
        nx={}
        for (r,b),pr in st.items():
            k=(r+1,max(b,r+1)); nx[k]=nx.get(k,0)+pr*q
            k=(0,b); nx[k]=nx.get(k,0)+pr*(1-q)
        st=nx
    out={}
    for (r,b),pr in st.items(): out[b]=out.get(b,0)+pr
    return out
ind=longest_run(N,F(N-B,N))
atl=lambda d,m:sum(v for k,v in d.items() if k>=m)
print("L19 longest mean bag",mean(gap),float(mean(gap)),"indep",float(mean(ind)),"P>=40",float(atl(gap,40)),float(atl(ind,40)))
fl=longest_run(40,F(3,4)); print("L19 season mean",float(mean(fl)),"P>=10",float(atl(fl,10)))
print("L19 ex due",F(B-2,N-24),"drought27",atl(gap,27),float(atl(gap,27)))
die=[-1,1,1,2,3,3]; fail=F(sum(f<3 for f in die),6); cs=atl(longest_run(12,fail),6); print("L19 ex cold",fail,cs,float(cs))
# L20 lottery model
def elim(players,lives):
    # state: tuple sorted lives of players in (and count out), round; returns {(r1,r2):p}
    out={}
    st={(tuple([lives]*players),0,None):F(1)}
    r=0
    while st:
        r+=1; nx={}
        for (ls,nout,r1),pr in st.items():
            k=len(ls)
            for i in range(k):
                l=list(ls); l[i]-=1
                if l[i]==0:
                    l.pop(i)
                    if r1 is None: key=(tuple(sorted(l)),1,r)
                    else:
                        out[(r1,r)]=out.get((r1,r),0)+pr/k; continue
                else: key=(tuple(sorted(l)),nout,r1)
                nx[key]=nx.get(key,0)+pr/k
        st=nx
    return out
m5=elim(5,10); assert sum(m5.values())==1
w={}
for (a,b),pr in m5.items(): w[b-a]=w.get(b-a,0)+pr
print("L20 model first",float(sum(a*pr for (a,b),pr in m5.items())),"wait",float(mean(w)),"max",max(w),"P<=1",float(w.get(1,0)+w.get(0,0)))
m64=elim(6,4); e=sum((b-a)*pr for (a,b),pr in m64.items()); print("L20 ex 6x4",float(e)); 
m610=elim(6,10); print("L20 6x10 wait",float(sum((b-a)*pr for (a,b),pr in m610.items())))
import pickle; pickle.dump({"ex20":e},open("ex20.pkl","wb"))
# L21 time trial: faces W1..W4 continue, B1,B3 stop; 20 spaces
def trial(spaces):
    faces=[(1,1),(2,1),(3,1),(4,1),(1,0),(3,0)]
    # per-turn: prob distribution of distance moved in a turn, capped at crossing
    @lru_cache(None)
    def turn(x):  # from covered x, dist over end position (spaces+1 = finished)
        d={}
        for f,cont in faces:
            y=x+f
            if y>spaces: d[spaces+1]=d.get(spaces+1,0)+F(1,6)
            elif cont:
                for z,q in turn(y).items(): d[z]=d.get(z,0)+F(1,6)*q
            else: d[y]=d.get(y,0)+F(1,6)
        return d
    where={0:F(1)}; dist={}; t=0
    while where:
        t+=1; nx={}
        for x,pr in where.items():
            for z,q in turn(x).items():
                if z>spaces: dist[t]=dist.get(t,0)+pr*q
                else: nx[z]=nx.get(z,0)+pr*q
        where=nx
    return dist
def seats(dist,n):
    gt=lambda t:sum(v for k,v in dist.items() if k>t); ge=lambda t:sum(v for k,v in dist.items() if k>=t)
    return [sum(p*gt(t)**k*ge(t)**(n-1-k) for t,p in dist.items()) for k in range(n)]
T=trial(20); s4=seats(T,4); print("L21 model4",[round(float(x),4) for x in s4],"sum",sum(s4)); print("L21 tie",float(sum(v*v for v in T.values())))
T4=trial(22); print("L21 sec0=4 P1",float(seats(T4,4)[0]))
s5=seats(T,5); print("L21 ex 5 seats P1",float(s5[0])); pickle.dump({"ex20":e,"ex21":s5[0]},open("ex.pkl","wb"))
